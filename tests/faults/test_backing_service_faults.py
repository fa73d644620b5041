"""Faults of the services behind nova (full slice: 50 servers each, through
the Compute API of a whole local cloud on a private RabbitMQ and MariaDB,
see :mod:`tests.faults.cloud`):

1. RabbitMQ stopped for 30 s mid-storm, then started: every daemon
   reconnects by itself; meanwhile the API answers 503 with a Retry-After
   for what it cannot hand on, and keeps no half-written build.
2. MariaDB killed mid-storm and restarted: 503 (never 500) while it is
   down, no half-written records.
5. Placement unreachable for 30 s during builds: what could not be
   scheduled ends in ERROR with a fault naming Placement; the computes'
   inventory reports recover.
6. Keystone unreachable for 30 s: a token nova-api has not validated gets a
   503; a token it validated keeps working for its cache lifetime.

One cloud serves the four, in this order; each leaves it recovered (the
invariants checked) for the next.
"""

from __future__ import annotations

import time

import pytest
import requests

from tests.faults import cloud as faults_cloud
from tests.faults import harness, private_services
from tests.fixtures.databases import skip_or_fail
from tests.fixtures.local_cloud import unavailable_reason, wait_for

pytestmark = [pytest.mark.rabbitmq, pytest.mark.mysql, pytest.mark.faults_full]

SERVERS = 50
# Faults start once this many servers were accepted: mid-storm.
FAULT_AFTER = 12
BROKER_DOWN_SECONDS = 30
DATABASE_DOWN_SECONDS = 15
PLACEMENT_DOWN_SECONDS = 30
KEYSTONE_DOWN_SECONDS = 30
# orphaned_build_timeout (30 s) three times, RPC timeouts, a loaded machine.
BOUND = 300


@pytest.fixture(scope="module")
def fc(tmp_path_factory):
    reason = unavailable_reason() or private_services.unavailable_reason()
    if reason:
        skip_or_fail(reason)
    with faults_cloud.fault_cloud(tmp_path_factory.mktemp("faultcloud")) as fc:
        yield fc


def _storm(fc, fault_after: int = FAULT_AFTER) -> faults_cloud.HttpLoad:
    load = faults_cloud.HttpLoad(fc, SERVERS).start()
    wait_for(
        lambda: load.accepted_count() >= fault_after, 300, "the storm to be under way"
    )
    return load


def _services_up(fc) -> bool:
    response = fc.compute().get("/os-services")
    if response.status_code != 200:
        return False
    services = response.json()["services"]
    return bool(services) and all(s["state"] == "up" for s in services)


def _finish(fc, load, report, cleared_at, fault_report):
    load.wait()
    faults_cloud.settle(fc, load, report, cleared_at, BOUND)
    wait_for(lambda: _services_up(fc), 120, "every nova service to be up")
    fault_report(report)
    return report


def _every_compute_builds(fc) -> dict[str, str]:
    """Boot one server on each compute host (admin's ``nova:<host>`` zone)
    and delete it: every compute consumes its queue again. Host -> status."""
    admin = fc.compute()
    hosts = [
        s["host"]
        for s in admin.get("/os-services", params={"binary": "nova-compute"}).json()[
            "services"
        ]
    ]
    servers = {}
    for host in hosts:
        response = admin.post(
            "/servers",
            json={
                "server": {
                    "name": f"probe-{host}",
                    "flavorRef": fc.flavor["id"],
                    "imageRef": fc.image["id"],
                    "networks": "none",
                    "availability_zone": f"nova:{host}",
                }
            },
        )
        assert response.status_code == 202, response.text
        servers[host] = response.json()["server"]["id"]

    def statuses():
        found = {
            host: admin.get(f"/servers/{server}").json()["server"]["status"]
            for host, server in servers.items()
        }
        return found if all(s in ("ACTIVE", "ERROR") for s in found.values()) else None

    found = wait_for(statuses, 180, "a server on every compute")
    for server in servers.values():
        admin.delete(f"/servers/{server}")
    return found


def test_rabbitmq_stopped_mid_storm(fc, fault_report):
    load = _storm(fc)
    fc.rabbitmq.stop()
    stopped_at = time.monotonic()
    time.sleep(BROKER_DOWN_SECONDS)
    refused_while_down = load.statuses["POST /servers 503"]
    fc.rabbitmq.start()
    cleared_at = time.monotonic()
    report = harness.FaultReport(
        f"RabbitMQ stopped {BROKER_DOWN_SECONDS} s mid-storm, then started; "
        f"{SERVERS} servers"
    )
    report.notes["broker down for"] = f"{cleared_at - stopped_at:.1f} s"
    _finish(fc, load, report, cleared_at, fault_report)
    # Every daemon reconnected: a build reaches each compute.
    probes = _every_compute_builds(fc)
    print(f"  a server booted on each compute afterwards: {probes}")
    assert set(probes.values()) == {"ACTIVE"}, probes
    assert refused_while_down, "no POST /servers was refused while the broker was down"
    assert report.problems == []


def test_mariadb_killed_mid_storm(fc, fault_report):
    load = _storm(fc)
    fc.mariadb.kill()
    killed_at = time.monotonic()
    time.sleep(DATABASE_DOWN_SECONDS)
    fc.mariadb.start()
    cleared_at = time.monotonic()
    report = harness.FaultReport(
        f"MariaDB killed (-9) mid-storm, restarted after {DATABASE_DOWN_SECONDS} s; "
        f"{SERVERS} servers"
    )
    report.notes["database down for"] = f"{cleared_at - killed_at:.1f} s"
    _finish(fc, load, report, cleared_at, fault_report)
    assert report.problems == []


def _inventories(fc) -> dict[str, dict]:
    placement = fc.cloud.placement()
    providers = placement.get("/resource_providers").json()["resource_providers"]
    return {
        p["name"]: placement.get(f"/resource_providers/{p['uuid']}/inventories").json()[
            "inventories"
        ]
        for p in providers
    }


def test_placement_unreachable_during_builds(fc, fault_report):
    load = _storm(fc)
    placement = fc.process("placement")
    assert placement.stop()
    time.sleep(PLACEMENT_DOWN_SECONDS)
    fc.cloud.restart_stopped()
    cleared_at = time.monotonic()
    report = harness.FaultReport(
        f"Placement stopped {PLACEMENT_DOWN_SECONDS} s during builds, then "
        f"started; {SERVERS} servers"
    )
    _finish(fc, load, report, cleared_at, fault_report)
    faults = report.notes.get("error faults", [])
    assert all("Placement" in fault for fault in faults), faults
    # The computes' inventories are in Placement again.
    inventories = wait_for(
        lambda: (found := _inventories(fc)) and all(found.values()) and found,
        120,
        "the computes' inventories",
    )
    report.notes["providers with inventory after"] = len(inventories)
    assert report.problems == []


def _fresh_token(fc, credentials) -> str:
    """A token of ``credentials`` that nova-api has never seen."""
    from keystoneauth1 import session as ks_session
    from keystoneauth1.identity import v3

    auth = v3.Password(**credentials.auth_kwargs(fc.cloud.services.auth_url))
    return ks_session.Session(auth=auth).get_token()


def test_keystone_unreachable(fc, fault_report):
    load = _storm(fc)
    fresh = _fresh_token(fc, load.credentials)
    keystone = fc.process("keystone")
    assert keystone.stop()
    stopped_at = time.monotonic()
    try:
        # Validated before the outage (the load's): still served.
        cached = load.compute.get("/servers", timeout=60)
        # Never validated: nova-api cannot ask Keystone.
        unknown = requests.get(
            f"{fc.cloud.compute_url.rstrip('/')}/servers",
            headers={"X-Auth-Token": fresh},
            timeout=60,
        )
        time.sleep(max(0.0, KEYSTONE_DOWN_SECONDS - (time.monotonic() - stopped_at)))
    finally:
        fc.cloud.restart_stopped()
    cleared_at = time.monotonic()
    report = harness.FaultReport(
        f"Keystone stopped {KEYSTONE_DOWN_SECONDS} s mid-storm, then started; "
        f"{SERVERS} servers"
    )
    report.notes["validated token while down"] = cached.status_code
    report.notes["new token while down"] = unknown.status_code
    _finish(fc, load, report, cleared_at, fault_report)
    assert cached.status_code == 200, cached.text
    assert unknown.status_code == 503, unknown.text
    assert report.problems == []
