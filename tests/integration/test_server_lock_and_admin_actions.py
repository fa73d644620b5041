"""Lock, unlock, reset-state and diagnostics end to end: the unmodified
``openstack`` CLI against a launched cloud (real Keystone, Placement,
Glance, MariaDB, RabbitMQ; our daemons as separate processes, computes on
the fake driver)."""

from __future__ import annotations

import pytest

from nova.states import power_state
from tests.fixtures.openstack_services import OpenStackCLIError
from tests.integration.test_server_power_actions import (  # noqa: F401  (fixtures)
    _wait_status,
    cloud,
    server,
)

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

V273 = ("--os-compute-api-version", "2.73")


def test_lock_and_unlock_with_the_openstack_cli(cloud, server):  # noqa: F811
    demo = cloud.services.demo_cloud
    sid = server["id"]

    def run(*args, who=demo):
        return cloud.openstack(*args, cloud=who, json_output=False)

    run(*V273, "server", "lock", "--reason", "kernel upgrade", sid)
    shown = cloud.openstack(*V273, "server", "show", sid, cloud=demo)
    assert shown["locked"] is True
    assert shown["locked_reason"] == "kernel upgrade"
    listed = cloud.openstack(*V273, "server", "list", "--locked", cloud=demo)
    assert sid in [s["ID"] for s in listed]
    unlocked = cloud.openstack(*V273, "server", "list", "--unlocked", cloud=demo)
    assert sid not in [s["ID"] for s in unlocked]

    # The owner may not change a locked server...
    for args in (("server", "stop", sid), ("server", "delete", sid)):
        with pytest.raises(OpenStackCLIError, match="is locked"):
            run(*args)
    assert cloud.openstack("server", "show", sid)["status"] == "ACTIVE"
    # ...nor lift an admin's lock; an admin may act on it.
    run("server", "unlock", sid)
    run("server", "lock", sid, who=cloud.services.admin_cloud)
    with pytest.raises(OpenStackCLIError, match="403|unlock_override"):
        run("server", "unlock", sid)
    run("server", "pause", sid, who=cloud.services.admin_cloud)
    _wait_status(cloud, sid, "PAUSED", power_state.PAUSED)
    run("server", "unlock", sid, who=cloud.services.admin_cloud)
    run("server", "unpause", sid)
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    shown = cloud.openstack(*V273, "server", "show", sid, cloud=demo)
    assert (shown["locked"], shown["locked_reason"]) == (False, None)


def test_reset_state_and_diagnostics_with_the_openstack_cli(cloud, server):  # noqa: F811
    demo = cloud.services.demo_cloud
    sid = server["id"]

    # Only admins reset states.
    reset = ("server", "set", "--auto-approve", "--state")
    with pytest.raises(OpenStackCLIError, match="403|reset_state"):
        cloud.openstack(*reset, "error", sid, cloud=demo, json_output=False)
    cloud.openstack(*reset, "error", sid, json_output=False)
    assert cloud.openstack("server", "show", sid)["status"] == "ERROR"
    cloud.openstack(*reset, "active", sid, json_output=False)
    assert cloud.openstack("server", "show", sid)["status"] == "ACTIVE"
    # changePassword: a call through to the compute's (fake) guest.
    cloud.openstack(
        "server", "set", "--password", "n3w-Secret", sid, cloud=demo, json_output=False
    )
    assert cloud.openstack("server", "show", sid)["OS-EXT-STS:task_state"] is None
    actions = [a["Action"] for a in cloud.openstack("server", "event", "list", sid)]
    assert actions.count("resetState") == 2
    assert "changePassword" in actions

    # Before 2.48 the keys are the driver's own, which the CLI (through
    # openstacksdk's fixed resource) does not show: read them raw.
    old = cloud.compute(microversion="2.47").get(f"/servers/{sid}/diagnostics")
    assert old.json()["cpu0_time"] == 17300000000
    new = cloud.openstack(
        "--os-compute-api-version", "2.48", "server", "show", "--diagnostics", sid
    )
    assert (new["driver"], new["state"]) == ("libvirt", "running")
    assert new["memory_details"] == {"maximum": 64, "used": 0}
    with pytest.raises(OpenStackCLIError, match="403|diagnostics"):
        cloud.openstack("server", "show", "--diagnostics", sid, cloud=demo)
    # A stopped server has no diagnostics to give.
    cloud.openstack("server", "stop", sid, cloud=demo, json_output=False)
    _wait_status(cloud, sid, "SHUTOFF", power_state.SHUTDOWN)
    with pytest.raises(OpenStackCLIError, match="409|Cannot"):
        cloud.openstack("server", "show", "--diagnostics", sid)
