"""Two creates racing for the last free slot of a cloud, handled by two
schedulers: one server fits, the other ends in ERROR with NoValidHost, and
Placement never holds more than the host has (quick slice)."""

from __future__ import annotations

import concurrent.futures
import time

import pytest
import requests
from oslo_utils import uuidutils

from nova import context as nova_context
from nova.compute.api import delete as delete_api
from nova.compute.api import servers as server_api
from nova.states import vm_states
from tests.faults import harness
from tests.functional.boot.deployment import flavor as make_flavor
from tests.functional.boot.deployment import wait_for

pytestmark = [pytest.mark.rabbitmq, pytest.mark.mysql]

ROUNDS = 3
VCPUS = 2


def _usage(placement_endpoint: str, project: str) -> dict:
    response = requests.get(
        f"{placement_endpoint}/usages",
        params={"project_id": project},
        headers=harness.PLACEMENT_HEADERS,
        timeout=30,
    )
    response.raise_for_status()
    return {k: v for k, v in response.json()["usages"].items() if v}


def test_two_creates_race_for_the_last_slot(
    deployment, placement_endpoint, fault_report
):
    host = f"slot-{uuidutils.generate_uuid()[:8]}"
    # Two vCPUs in Placement, not two times an overcommit ratio.
    deployment.compute_options["cpu_allocation_ratio"] = 1.0
    deployment.start_all([host], vcpus=VCPUS, memory_mb=65536, local_gb=1000)
    # A second scheduler on the same topic: the two creates may be
    # scheduled by different processes, each with its own view of the host.
    deployment.start("scheduler-2", "scheduler", deployment.directory / "nova.conf")
    admin = nova_context.get_admin_context()
    deployment.wait_for_computes(admin)
    project = uuidutils.generate_uuid()
    user = harness.make_user(project)
    flavor = make_flavor("slot", memory_mb=128)
    servers, deletes = server_api.ServersAPI(), delete_api.DeleteAPI()
    report = harness.FaultReport(
        f"two creates racing for the last slot, two schedulers; {ROUNDS} rounds"
    )
    states: dict[str, int] = {}
    faults = set()
    for _round in range(ROUNDS):
        (first,) = deployment.boot(user, flavor, name="filler")
        deployment.wait_for_states(admin, [first], {vm_states.ACTIVE}, timeout=60)
        states[vm_states.ACTIVE] = states.get(vm_states.ACTIVE, 0) + 1
        raced_at = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            racers = [
                uuid
                for uuids in pool.map(
                    lambda n: deployment.boot(user, flavor, name=f"racer{n}"), (1, 2)
                )
                for uuid in uuids
            ]
        found = deployment.wait_for_states(
            admin, racers, {vm_states.ACTIVE, vm_states.ERROR}, timeout=90
        )
        settled = time.monotonic() - raced_at
        report.recover_seconds = max(report.recover_seconds or 0, settled)
        outcome = sorted(instance.vm_state for _, instance in found.values())
        for state in outcome:
            states[state] = states.get(state, 0) + 1
        assert outcome == [vm_states.ACTIVE, vm_states.ERROR], outcome
        (loser,) = [i for _, i in found.values() if i.vm_state == vm_states.ERROR]
        assert "No valid host" in loser.fault.message
        faults.add(harness.UUID.sub("<uuid>", loser.fault.message)[:120])
        assert _usage(placement_endpoint, project)["VCPU"] == VCPUS
        report.accepted += 3

        for uuid in (first, *racers):
            deletes.delete(user, servers.get(user, uuid))
            report.deletes_accepted += 1
        wait_for(
            lambda: not _usage(placement_endpoint, project),
            60,
            "the slot to be free again",
        )
        round_servers = (first, *racers)
        wait_for(
            lambda servers=round_servers: all(
                deployment.find_instance(admin, uuid)[1].deleted for uuid in servers
            ),
            60,
            "the servers of the round to be deleted",
        )
    report.final_states = {"ACTIVE (fillers and winners)": states[vm_states.ACTIVE]}
    report.final_states["ERROR (NoValidHost)"] = states.get(vm_states.ERROR, 0)
    report.final_states["deleted afterwards"] = report.deletes_accepted
    report.notes["error faults"] = sorted(faults)
    report.notes["Placement VCPU used at most"] = f"{VCPUS} of {VCPUS}"
    fault_report(report)
