"""The Compute API served over HTTP by a real threaded WSGI server.

Databases (the API database, cell0 and cell1) are migrated once per
backend and emptied after each test. Tests that create servers use the
real Glance of the ``openstack_services`` fixture for images, and a
recording double of the superconductor: the point of these tests is what
the API writes and answers, the build itself is proven end to end
elsewhere.
"""

from __future__ import annotations

import socketserver
import threading
import uuid
import wsgiref.simple_server
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
import sqlalchemy as sa
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from nova import context as nova_context
from nova import objects, service_session
from nova.api.openstack.compute import wsgi_app
from nova.compute.api import base as compute_base
from nova.conf import CONF
from nova.db import engines, migration
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from nova.image import glance as glance_api
from nova.objects import flavor as flavor_obj  # noqa: F401  (registers Flavor)
from tests.fixtures import databases

objects.register_all()

ADMIN = "admin:admin"
DEMO = "demo:demo"
OTHER = "other:other"

# Tables tests write to; emptied in reverse dependency order.
_API_TABLES = [
    t
    for t in reversed(api_models.BASE.metadata.sorted_tables)
    if t.name not in ("cell_mappings", "alembic_version")
]
_CELL_TABLES = [
    t
    for t in reversed(main_models.BASE.metadata.sorted_tables)
    if t.name != "alembic_version"
]


@pytest.fixture(scope="session", autouse=True)
def parsed_conf():
    CONF([], project="nova", default_config_files=[])


@pytest.fixture(
    scope="session",
    params=[
        pytest.param("sqlite"),
        pytest.param("mysql", marks=pytest.mark.mysql),
        pytest.param("postgresql", marks=pytest.mark.postgresql),
    ],
)
def cloud_databases(request, tmp_path_factory) -> dict[str, Any]:
    """A migrated API database with cell0 and cell1 mapped, on one backend."""
    reason = databases.backend_unavailable_reason(request.param)
    if reason:
        databases.skip_or_fail(reason)
    throwaway = databases.ThrowawayDatabases(
        request.param, tmp_path_factory.mktemp(f"api-{request.param}")
    )
    try:
        urls = {name: throwaway.create(name) for name in ("api", "cell0", "cell1")}
        migration.db_sync("api", urls["api"])
        migration.db_sync("main", urls["cell0"])
        migration.db_sync("main", urls["cell1"])
        CONF.set_override("connection", urls["api"], group="api_database")
        context = nova_context.get_admin_context()
        cells = {
            "cell0": objects.CellMapping(
                context,
                uuid=objects.CellMapping.CELL0_UUID,
                name="cell0",
                transport_url="none:///",
                database_connection=urls["cell0"],
            ),
            "cell1": objects.CellMapping(
                context,
                uuid=str(uuid.uuid4()),
                name="cell1",
                transport_url="rabbit://guest:guest@127.0.0.1:5672/cell1",
                database_connection=urls["cell1"],
            ),
        }
        for cell in cells.values():
            cell.create()
        CONF.clear_override("connection", group="api_database")
        yield {"backend": request.param, "urls": urls, "cells": cells}
    finally:
        throwaway.drop_all()


def _empty(connection: str, tables) -> None:
    with engines.get_engine(connection).begin() as conn:
        for table in tables:
            conn.execute(sa.delete(table))


@pytest.fixture
def nova_conf(cloud_databases):
    """nova.conf for the API: these databases, noauth2, our Glance."""
    urls = cloud_databases["urls"]
    overrides = [
        ("connection", urls["api"], "api_database"),
        ("connection", urls["cell0"], "database"),
        ("auth_strategy", "noauth2", "api"),
    ]
    for name, value, group in overrides:
        CONF.set_override(name, value, group=group)
    yield cloud_databases
    for name, _, group in overrides:
        CONF.clear_override(name, group=group)
    _empty(urls["api"], _API_TABLES)
    _empty(urls["cell0"], _CELL_TABLES)
    _empty(urls["cell1"], _CELL_TABLES)


class _ThreadingWSGIServer(
    socketserver.ThreadingMixIn, wsgiref.simple_server.WSGIServer
):
    daemon_threads = True


class _QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - wsgiref's name
        pass


class WSGIServer:
    """``app`` on 127.0.0.1, one thread per request, until stopped."""

    def __init__(self, app, port: int = 0) -> None:
        self._server = wsgiref.simple_server.make_server(
            "127.0.0.1",
            port,
            app,
            server_class=_ThreadingWSGIServer,
            handler_class=_QuietHandler,
        )
        self.port = self._server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


class Client:
    """Calls the API as a user (``X-Auth-Token: user:project``)."""

    def __init__(self, base_url: str, token: str | None = DEMO) -> None:
        self.base_url = base_url
        self.token = token
        self.session = requests.Session()
        # A developer's HTTP proxy must not see loopback traffic.
        self.session.trust_env = False

    def request(self, method, path, *, token=..., version=None, headers=None, **kw):
        all_headers = dict(headers or {})
        token = self.token if token is ... else token
        if token is not None:
            all_headers["X-Auth-Token"] = token
        if version is not None:
            all_headers["OpenStack-API-Version"] = f"compute {version}"
        return self.session.request(
            method, self.base_url + path, headers=all_headers, timeout=60, **kw
        )

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body, **kw):
        return self.request("POST", path, json=body, **kw)

    def put(self, path, body, **kw):
        return self.request("PUT", path, json=body, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)


@pytest.fixture
def api(nova_conf):
    """A client of the API (as the demo user) served over HTTP."""
    server = WSGIServer(wsgi_app.build_app(CONF))
    yield Client(server.url)
    server.stop()


def fault(response) -> tuple[str, int, str]:
    """(fault name, code, message) of a fault response."""
    body = response.json()
    assert len(body) == 1, body
    name, content = next(iter(body.items()))
    return name, content["code"], content["message"]


# -- doubles of the services nova-api hands work to ------------------------


@dataclass
class RecordingConductor:
    """Stands in for the superconductor: records the build requests."""

    builds: list[dict] = field(default_factory=list)

    def schedule_and_build_instances(self, context, **kwargs):
        self.builds.append(kwargs)


@dataclass
class RecordingComputeRPC:
    """Stands in for nova-compute: records terminate, soft delete and
    restore requests."""

    terminated: list[str] = field(default_factory=list)
    soft_deleted: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)

    def terminate_instance(self, context, instance, bdms=None):
        self.terminated.append(instance.uuid)

    def soft_delete_instance(self, context, instance):
        self.soft_deleted.append(instance.uuid)

    def restore_instance(self, context, instance):
        self.restored.append(instance.uuid)


@pytest.fixture
def conductor(monkeypatch) -> RecordingConductor:
    double = RecordingConductor()
    monkeypatch.setattr(
        compute_base.FlowAPI, "_compute_task_api", staticmethod(lambda: double)
    )
    return double


@pytest.fixture
def compute_rpc(monkeypatch) -> RecordingComputeRPC:
    double = RecordingComputeRPC()
    monkeypatch.setattr(
        compute_base.FlowAPI, "_compute_rpcapi", staticmethod(lambda: double)
    )
    return double


# -- real Glance --------------------------------------------------------------


@dataclass
class Images:
    active: str
    needs_4g_ram: str
    queued: str
    private_of_admin: str


def _create_image(session, glance_url: str, data: bytes | None, **values) -> str:
    body = {"container_format": "bare", "disk_format": "raw", **values}
    image = session.post(f"{glance_url}/v2/images", json=body).json()
    if data is not None:
        session.put(
            f"{glance_url}/v2/images/{image['id']}/file",
            data=data,
            headers={"Content-Type": "application/octet-stream"},
        )
    return image["id"]


@pytest.fixture(scope="session")
def glance_images(openstack_services) -> Images:
    """Images in the real Glance, made by the admin."""
    session = openstack_services.session()
    url = openstack_services.glance_url
    suffix = uuid.uuid4().hex[:8]
    images = Images(
        active=_create_image(
            session, url, b"x" * 4096, name=f"tiny-{suffix}", visibility="public",
            hw_disk_bus="virtio",
        ),
        needs_4g_ram=_create_image(
            session, url, b"x" * 4096, name=f"big-{suffix}", visibility="public",
            min_ram=4096,
        ),
        queued=_create_image(
            session, url, None, name=f"q-{suffix}", visibility="public"
        ),
        private_of_admin=_create_image(
            session, url, b"x", name=f"p-{suffix}", visibility="private"
        ),
    )  # fmt: skip
    yield images
    for image_id in vars(images).values():
        session.delete(f"{url}/v2/images/{image_id}")


@pytest.fixture
def glance(openstack_services, glance_images, monkeypatch) -> Images:
    """nova-api reading images as the nova service user, as [glance]
    credentials would make it (noauth2 has no user token to pass on)."""
    user = openstack_services.service_users["nova"]
    auth = v3.Password(**user.auth_kwargs(openstack_services.auth_url))
    monkeypatch.setitem(
        service_session._loaded, glance_api.GROUP, (ks_session.Session(), auth)
    )
    CONF.set_override("region_name", openstack_services.region, group="glance")
    yield glance_images
    CONF.clear_override("region_name", group="glance")


@pytest.fixture
def flavor(nova_conf):
    """A public flavor m1.tiny (id 1) in the API database."""
    context = nova_context.get_admin_context()
    tiny = objects.Flavor(
        context, name="m1.tiny", flavorid="1", memory_mb=512, vcpus=1, root_gb=1,
        ephemeral_gb=0, swap=0, rxtx_factor=1.0, disabled=False, is_public=True,
        extra_specs={}, projects=[], description=None, vcpu_weight=None,
    )  # fmt: skip
    tiny.create()
    return tiny
