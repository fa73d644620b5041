"""Server power actions end to end on the fake driver: the unmodified
``openstack`` CLI against a launched cloud (real Keystone, Placement, Glance,
MariaDB, RabbitMQ; nova-api, conductors, scheduler and computes as separate
processes). The libvirt driver runs the same flow in tests/e2e."""

from __future__ import annotations

import uuid

import pytest

from nova.states import power_state
from tests.fixtures.local_cloud import wait_for
from tests.fixtures.openstack_services import OpenStackCLIError

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

ACTION_TIMEOUT = 60


@pytest.fixture
def cloud(local_cloud):
    with local_cloud.exclusive():
        yield local_cloud


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def server(cloud, tmp_path):
    demo = cloud.services.demo_cloud
    data = tmp_path / "disk.raw"
    data.write_bytes(b"\0" * 65536)
    image = cloud.openstack(
        "image", "create", "--disk-format", "raw", "--container-format", "bare",
        "--public", "--file", str(data), _unique("img"),
    )  # fmt: skip
    flavor = _unique("f")
    cloud.openstack("flavor", "create", "--ram", "64", "--disk", "1", flavor)
    created = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image["id"],
        "--no-network", "--wait", _unique("pw"), cloud=demo,
    )  # fmt: skip
    yield created
    cloud.openstack(
        "server", "delete", "--wait", created["id"], cloud=demo, json_output=False
    )
    cloud.openstack("flavor", "delete", flavor, json_output=False)
    cloud.openstack("image", "delete", image["id"], json_output=False)


def _wait_status(cloud, server_id: str, status: str, power: int) -> dict:
    def settled():
        shown = cloud.openstack("server", "show", server_id)
        if (
            shown["status"] == status
            and shown["OS-EXT-STS:task_state"] is None
            and shown["OS-EXT-STS:power_state"] == power
        ):
            return shown
        return None

    return wait_for(settled, ACTION_TIMEOUT, f"{server_id} {status}/{power}")


def test_power_actions_with_the_openstack_cli(cloud, server):
    demo = cloud.services.demo_cloud
    sid = server["id"]

    def run(*args):
        cloud.openstack("server", *args, sid, cloud=demo, json_output=False)

    run("stop")
    _wait_status(cloud, sid, "SHUTOFF", power_state.SHUTDOWN)
    # Stopping what is stopped: 409, state unchanged.
    with pytest.raises(OpenStackCLIError, match="409|Cannot"):
        run("stop")
    run("start")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    run("reboot")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    run("reboot", "--hard")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    run("pause")
    _wait_status(cloud, sid, "PAUSED", power_state.PAUSED)
    with pytest.raises(OpenStackCLIError, match="409|Cannot"):
        run("suspend")
    run("unpause")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    run("suspend")
    _wait_status(cloud, sid, "SUSPENDED", power_state.SUSPENDED)
    run("resume")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)

    log = cloud.openstack("console", "log", "show", sid, cloud=demo, json_output=False)
    assert "FAKE CONSOLE OUTPUT" in log


def test_unknown_action_is_a_bad_request(cloud, server):
    compute = cloud.compute(cloud.services.demo)
    response = compute.post(
        f"/servers/{server['id']}/action", json={"os-nothing": None}
    )
    assert response.status_code == 400
    assert "There is no such action: os-nothing" in response.text
    response = compute.post(
        f"/servers/{server['id']}/action", json={"reboot": {"type": "WARM"}}
    )
    assert response.status_code == 400
    response = compute.post(f"/servers/{uuid.uuid4()}/action", json={"os-stop": None})
    assert response.status_code == 404
