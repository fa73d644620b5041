"""The API behind keystonemiddleware against the real Keystone, and the
unmodified ``openstack`` CLI against the API.

The keystone-mode server listens on the port the catalog registers for
compute, so the CLI finds it through the catalog like any client; a file
lock keeps parallel test workers from starting two on that port.
"""

from __future__ import annotations

import contextlib
import fcntl
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from oslo_config import cfg

import nova.conf
from nova.api.openstack.compute import wsgi_app
from tests.functional.api.conftest import ADMIN, Client, WSGIServer, fault

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

CONF = nova.conf.CONF


@contextlib.contextmanager
def _exclusive(path: Path):
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _keystone_conf(openstack_services, directory: Path) -> cfg.ConfigOpts:
    """A nova.conf with auth_strategy = keystone and [keystone_authtoken]
    for the nova service user, loaded into its own ConfigOpts."""
    user = openstack_services.service_users["nova"]
    path = directory / "nova-keystone.conf"
    path.write_text(
        textwrap.dedent(
            f"""\
            [api]
            auth_strategy = keystone
            [keystone_authtoken]
            www_authenticate_uri = {openstack_services.auth_url}
            auth_url = {openstack_services.auth_url}
            auth_type = password
            username = {user.username}
            password = {user.password}
            project_name = {user.project_name}
            user_domain_name = {user.user_domain_name}
            project_domain_name = {user.project_domain_name}
            region_name = {openstack_services.region}
            """
        )
    )
    conf = cfg.ConfigOpts()
    nova.conf.register_all(conf)
    conf(["--config-file", str(path)], project="nova", default_config_files=[])
    return conf


@pytest.fixture
def keystone_api(nova_conf, openstack_services, tmp_path_factory, tmp_path):
    """The API in keystone mode on the catalog's compute port."""
    port = urlsplit(openstack_services.compute_url).port
    lock = tmp_path_factory.getbasetemp().parent / "compute-port.lock"
    CONF.set_override("auth_strategy", "keystone", group="api")
    with _exclusive(lock):
        app = wsgi_app.build_app(_keystone_conf(openstack_services, tmp_path))
        server = WSGIServer(app, port=port)
        try:
            yield Client(server.url, token=None)
        finally:
            server.stop()


def _token(openstack_services, credentials) -> str:
    return openstack_services.session(credentials).get_token()


def test_version_documents_need_no_token(keystone_api):
    assert keystone_api.get("/v2.1").json()["version"]["id"] == "v2.1"
    assert keystone_api.get("/").status_code == 200


def test_a_keystone_token_is_accepted_and_a_bad_one_refused(
    keystone_api, openstack_services
):
    token = _token(openstack_services, openstack_services.demo)
    assert keystone_api.get("/v2.1/flavors", token=token).status_code == 200
    assert keystone_api.get("/v2.1/flavors", token="not-a-token").status_code == 401
    assert keystone_api.get("/v2.1/flavors").status_code == 401


def test_roles_come_from_the_token(keystone_api, openstack_services):
    body = {"flavor": {"name": "k1", "ram": 64, "vcpus": 1, "disk": 1, "id": "k1"}}
    member = _token(openstack_services, openstack_services.demo)
    assert fault(keystone_api.post("/v2.1/flavors", body, token=member))[1] == 403
    admin = _token(openstack_services, openstack_services.admin)
    assert keystone_api.post("/v2.1/flavors", body, token=admin).status_code == 200
    reader = _token(openstack_services, openstack_services.reader)
    assert keystone_api.get("/v2.1/flavors/k1", token=reader).status_code == 200


def test_images_are_read_with_the_users_own_token(
    keystone_api, openstack_services, glance_images, flavor, conductor
):
    demo = _token(openstack_services, openstack_services.demo)

    def create(image):
        body = {
            "server": {
                "name": "k",
                "flavorRef": "1",
                "imageRef": image,
                "networks": "none",
            }
        }
        return keystone_api.post("/v2.1/servers", body, token=demo, version="2.96")

    assert create(glance_images.active).status_code == 202
    # The admin's private image is invisible to the demo user.
    assert fault(create(glance_images.private_of_admin)) == (
        "badRequest",
        400,
        "Can not find requested image",
    )


def _openstack(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(Path(sys.executable).parent / "openstack"), *args],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        check=False,
    )


def test_openstack_cli_with_password_auth_through_the_catalog(
    keystone_api, openstack_services, glance_images, flavor, conductor
):
    created = openstack_services.openstack(
        "flavor", "create", "--ram", "128", "--disk", "1", "--vcpus", "1", "cli-k"
    )
    assert created["name"] == "cli-k"
    names = {f["Name"] for f in openstack_services.openstack("flavor", "list")}
    assert {"m1.tiny", "cli-k"} <= names
    server = openstack_services.openstack(
        "server", "create", "--flavor", "m1.tiny", "--image", glance_images.active,
        "--no-network", "cli-server", cloud=openstack_services.demo_cloud,
    )  # fmt: skip
    assert server["status"] == "BUILD"
    assert len(conductor.builds) == 1
    listed = openstack_services.openstack(
        "server", "list", cloud=openstack_services.demo_cloud
    )
    assert [s["Name"] for s in listed] == ["cli-server"]


def test_openstack_cli_in_noauth2(api, openstack_services, tmp_path):
    endpoint = f"{api.base_url}/v2.1"
    env = openstack_services.cli_environment()
    noauth = [
        "--os-auth-type",
        "admin_token",
        "--os-token",
        ADMIN,
        "--os-endpoint",
        endpoint,
    ]
    listed = _openstack(*noauth, "flavor", "list", "-f", "json", env=env)
    assert listed.returncode == 0, listed.stderr
    # flavor create also asks for the identity v3 API (for --project), so
    # identity points at the real Keystone while compute is ours.
    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(
        yaml.safe_dump(
            {
                "clouds": {
                    "noauth": {
                        "auth_type": "admin_token",
                        "auth": {"token": ADMIN, "endpoint": endpoint},
                        "identity_api_version": 3,
                        "compute_endpoint_override": endpoint,
                        "identity_endpoint_override": openstack_services.auth_url,
                    }
                }
            }
        )
    )
    env["OS_CLIENT_CONFIG_FILE"] = str(clouds)
    created = _openstack(
        "--os-cloud", "noauth", "flavor", "create", "--ram", "64", "--disk", "1",
        "--vcpus", "1", "--id", "cli-1", "cli-flavor", "-f", "json", env=env,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    assert api.get("/v2.1/flavors/cli-1").json()["flavor"]["name"] == "cli-flavor"
