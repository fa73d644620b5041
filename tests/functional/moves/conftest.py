"""Two fake computes, the superconductor, scheduler and cell conductor as
processes on real RabbitMQ vhosts, real Placement and a real database;
this process serves the Compute API over HTTP, as nova-api does."""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects
from nova.api.openstack.compute import wsgi_app
from nova.conf import CONF
from nova.states import vm_states
from tests.fixtures.placement import make_client
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.api.conftest import Client, WSGIServer, parsed_conf  # noqa: F401
from tests.functional.boot.deployment import configured_deployment, flavor, wait_for

STATE_TIMEOUT = 60
# The flavor servers boot with (not in the API database, as the boot
# tests' helper makes it) and those they are resized to.
SMALL = flavor("small", memory_mb=256, vcpus=1, root_gb=2)
FLAVORS = {
    "small": {"memory_mb": 256, "vcpus": 1, "root_gb": 2},
    "medium": {"memory_mb": 512, "vcpus": 2, "root_gb": 2},
    "smaller-disk": {"memory_mb": 512, "vcpus": 1, "root_gb": 1},
    "no-root-disk": {"memory_mb": 512, "vcpus": 1, "root_gb": 0},
    "huge": {"memory_mb": 16384, "vcpus": 1, "root_gb": 2},
}


@pytest.fixture
def compute_options(request) -> dict:
    """[DEFAULT] options of the computes (and of this nova-api), by
    indirect parametrization."""
    return getattr(request, "param", {})


@pytest.fixture
def fake_driver_options(request) -> dict:
    """More [fake_driver] options of the computes (e.g. spawn_seconds), by
    indirect parametrization."""
    return getattr(request, "param", {})


@pytest.fixture
def common_options(request) -> dict:
    """Option groups of every daemon (e.g. ``[notifications]``), by
    indirect parametrization."""
    return getattr(request, "param", {})


@pytest.fixture
def deployment(
    make_db_url,
    make_vhost,  # noqa: F811
    placement_endpoint,
    tmp_path,
    compute_options,
    fake_driver_options,
    common_options,
):
    with configured_deployment(
        make_db_url,
        make_vhost,
        placement_endpoint,
        tmp_path / "deployment",
        compute_options=compute_options,
        common_options=common_options,
    ) as deployment:
        # Unique host names: Placement is shared with other tests.
        suffix = uuidutils.generate_uuid()[:8]
        deployment.start_all(
            [f"move-a-{suffix}", f"move-b-{suffix}"],
            vcpus=16,
            memory_mb=8192,
            local_gb=100,
            **fake_driver_options,
        )
        yield deployment


@pytest.fixture
def cloud(deployment, placement_endpoint):
    """The API over HTTP, a demo project's client, the flavors to resize
    to, and Placement."""
    CONF.set_override("auth_strategy", "noauth2", group="api")
    admin = nova_context.get_admin_context()
    deployment.wait_for_computes(admin)
    for name, sizes in FLAVORS.items():
        objects.Flavor(
            admin,
            name=name,
            flavorid=name,
            ephemeral_gb=0,
            swap=0,
            disabled=False,
            is_public=True,
            **sizes,
        ).create()
    server = WSGIServer(wsgi_app.build_app(CONF))
    project = uuidutils.generate_uuid()
    deployment.admin = admin
    deployment.project = project
    deployment.api = Client(server.url, token=f"demo:{project}")
    deployment.placement = make_client(placement_endpoint)
    try:
        yield deployment
    finally:
        server.stop()
        CONF.clear_override("auth_strategy", group="api")


def boot(cloud, name: str = "moved") -> str:
    user = nova_context.RequestContext(
        user_id="demo", project_id=cloud.project, roles=["member"], overwrite=False
    )
    [uuid] = cloud.boot(user, SMALL, name=name)
    settled(cloud, uuid, vm_states.ACTIVE)
    return uuid


def instance(cloud, uuid):
    found = cloud.find_instance(cloud.admin, uuid)
    return found[1] if found else None


def settled(cloud, uuid: str, vm_state: str):
    """The instance once in ``vm_state`` with no task running."""
    return cloud.wait_for_settled(cloud.admin, uuid, vm_state, STATE_TIMEOUT)


def migrations(cloud, uuid: str) -> list:
    cell, _ = cloud.find_instance(cloud.admin, uuid)
    with nova_context.target_cell(cloud.admin, cell) as cctxt:
        return list(
            objects.MigrationList.get_by_filters(cctxt, {"instance_uuid": uuid})
        )


def migration_ended(cloud, uuid: str, status: str):
    """The server's only migration, once ``status``."""

    def done():
        found = migrations(cloud, uuid)
        assert len(found) <= 1, found
        return found[0] if found and found[0].status == status else None

    return wait_for(done, STATE_TIMEOUT, f"the migration of {uuid} to be {status}")


def action(cloud, uuid: str, body: dict, **kw):
    return cloud.api.post(f"/v2.1/servers/{uuid}/action", body, **kw)


def provider(cloud, host: str) -> str:
    return cloud.placement.find_provider(host).uuid


def allocations(cloud, consumer: str) -> dict:
    """``{provider uuid: resources}`` the consumer holds."""
    held = cloud.placement.get_allocations_for_consumer(consumer).allocations
    return {rp: alloc["resources"] for rp, alloc in held.items()}


def resources(flavor_sizes: dict) -> dict:
    return {
        "VCPU": flavor_sizes["vcpus"],
        "MEMORY_MB": flavor_sizes["memory_mb"],
        **({"DISK_GB": flavor_sizes["root_gb"]} if flavor_sizes["root_gb"] else {}),
    }


SMALL_RESOURCES = resources(FLAVORS["small"])
