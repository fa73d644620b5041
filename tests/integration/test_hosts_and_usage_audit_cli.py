"""os-hosts, the instance usage audit log and quota usage counting on a
launched cloud (real Keystone, Placement, Glance, MariaDB, RabbitMQ, two
fake-driver computes that run the usage audit): the ``openstack`` CLI where
it has commands (host list/show/set, limits), a keystoneauth session where
it has none (power actions, the audit log)."""

from __future__ import annotations

import pytest

from tests.fixtures.local_cloud import COMPUTES, wait_for
from tests.integration.test_compute_api_breadth import server  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

HOSTS = {f"compute-{n}" for n in range(1, COMPUTES + 1)}


def test_host_list_show_and_set(local_cloud, server):  # noqa: F811
    run = local_cloud.openstack
    listed = run("host", "list")
    computes = {h["Host Name"] for h in listed if h["Service"] == "compute"}
    assert computes >= HOSTS
    assert {h["Zone"] for h in listed if h["Service"] == "conductor"} == {"internal"}

    host = (
        local_cloud.compute()
        .get(f"/servers/{server['id']}")
        .json()["server"]["OS-EXT-SRV-ATTR:host"]
    )
    rows = {row["Project"]: row for row in run("host", "show", host)}
    assert {"(total)", "(used_now)", "(used_max)"} <= set(rows)
    assert int(rows["(used_max)"]["CPU"]) >= 1
    # The server's project has a row of its own.
    assert int(rows[server["project_id"]]["CPU"]) >= 1

    # status and maintenance go to the host's nova-compute (fake driver).
    run("host", "set", "--disable", "--enable-maintenance", host, json_output=False)
    compute = local_cloud.compute(microversion="2.42")
    updated = compute.put(f"/os-hosts/{host}", json={"status": "enable"})
    assert updated.status_code == 200, updated.text
    assert updated.json() == {"host": host, "status": "enabled"}
    gone = local_cloud.compute(microversion="2.43").get("/os-hosts")
    assert gone.status_code == 404


def test_power_actions_reach_the_compute(local_cloud):
    compute = local_cloud.compute(microversion="2.42")
    for action in ("startup", "shutdown", "reboot"):
        response = compute.get(f"/os-hosts/compute-1/{action}")
        assert response.status_code == 200, response.text
        assert response.json() == {"host": "compute-1", "power_action": action}
    missing = compute.get("/os-hosts/no-such-host/reboot")
    assert missing.status_code == 404
    denied = local_cloud.compute(local_cloud.services.demo, "2.42").get("/os-hosts")
    assert denied.status_code == 403


def test_every_compute_audits_the_last_period(local_cloud):
    compute = local_cloud.compute()

    def summary():
        response = compute.get("/os-instance_usage_audit_log")
        assert response.status_code == 200, response.text
        return response.json()["instance_usage_audit_logs"]

    wait_for(
        lambda: HOSTS <= {h for h, log in summary()["log"].items()
                          if log["state"] == "DONE"},
        120,
        "every compute's usage audit to be DONE",
    )  # fmt: skip
    audit = summary()
    assert audit["num_hosts_done"] >= COMPUTES and audit["total_errors"] == 0
    before = audit["period_ending"].replace(" ", "%20")
    older = compute.get(f"/os-instance_usage_audit_log/{before}").json()
    assert (
        older["instance_usage_audit_log"]["period_ending"] == audit["period_beginning"]
    )
    bad = compute.get("/os-instance_usage_audit_log/not-a-date")
    assert bad.status_code == 400


def test_quota_usage_is_what_the_cells_hold(local_cloud, server):  # noqa: F811
    demo = local_cloud.services.demo_cloud
    with local_cloud.exclusive():
        servers = local_cloud.compute(local_cloud.services.demo).get(
            "/servers/detail"
        ).json()["servers"]  # fmt: skip
        limits = {
            row["Name"]: row["Value"]
            for row in local_cloud.openstack("limits", "show", "--absolute", cloud=demo)
        }
    # openstacksdk's names for totalInstancesUsed, totalCoresUsed, totalRAMUsed.
    assert limits["instances_used"] == len(servers) >= 1
    assert limits["total_cores_used"] == sum(s["flavor"]["vcpus"] for s in servers)
    assert limits["total_ram_used"] == sum(s["flavor"]["ram"] for s in servers)
