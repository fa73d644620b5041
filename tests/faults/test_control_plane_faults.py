"""``kill -9`` of the superconductor, the cell conductor and the scheduler,
each mid-storm, then a restart (full slice: 50 servers).

Upstream leaves the builds such a kill interrupts in BUILD for ever. Here
the restarted conductors bury what their predecessor left in cell0 (build
requests never scheduled) or end it in ERROR (instances waiting for a
host), and a conductor whose scheduler call timed out buries that request
with NoValidHost; each with a fault saying why, within
``orphaned_build_timeout`` (or ``rpc_response_timeout``) and a margin.
"""

from __future__ import annotations

import pytest

from tests.faults import harness
from tests.faults.conftest import ORPHANED_BUILD_TIMEOUT, RPC_RESPONSE_TIMEOUT
from tests.functional.boot.deployment import flavor as make_flavor
from tests.functional.boot.deployment import wait_for

pytestmark = [pytest.mark.rabbitmq, pytest.mark.mysql, pytest.mark.faults_full]

SERVERS = 50
# Seconds a killed daemon stays dead before it is started again.
DEAD_SECONDS = 3
# Kill once this many servers have been accepted: mid-storm.
KILL_AFTER = 15


@pytest.mark.parametrize("victim", ["superconductor", "cell1-conductor", "scheduler"])
def test_kill_control_plane_mid_storm(
    deployment, placement_endpoint, fault_report, victim
):
    admin, user = harness.start_two_computes(deployment, "cp", 0.5)
    load = harness.BootDeleteLoad(
        deployment,
        user,
        make_flavor("fault", memory_mb=128),
        total=SERVERS,
        interval=0.3,
    ).start()

    wait_for(
        lambda: load.accepted_count() >= KILL_AFTER, 120, "the storm to be under way"
    )
    cleared_at = harness.kill_and_restart(deployment, victim, DEAD_SECONDS)
    load.wait()

    report = harness.FaultReport(
        f"kill -9 {victim} mid-storm, restarted after {DEAD_SECONDS} s; "
        f"{SERVERS} servers"
    )
    bound = ORPHANED_BUILD_TIMEOUT * 3 + RPC_RESPONSE_TIMEOUT + 120
    harness.settle(
        deployment, admin, load, placement_endpoint, report, cleared_at, bound
    )
    fault_report(report)
    assert report.problems == []
