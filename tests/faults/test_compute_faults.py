"""Faults of nova-compute under a boot-and-delete load: ``kill -9``
mid-build then a restart (quick slice: 10 servers; full: 50), and a freeze
(SIGSTOP) past ``service_down_time`` then SIGCONT (full)."""

from __future__ import annotations

import signal
import time

import pytest

from nova import context as nova_context
from nova import objects, servicegroup
from nova.states import task_states, vm_states
from tests.faults import harness
from tests.functional.boot.deployment import flavor as make_flavor
from tests.functional.boot.deployment import wait_for

pytestmark = [pytest.mark.rabbitmq, pytest.mark.mysql]

SPAWN_SECONDS = 1.0
# Seconds a killed compute stays dead before it is started again.
DEAD_SECONDS = 3
# Servers of the frozen host its users delete while it is reported down.
DELETED_WHILE_DOWN = 3


def _instances_of(deployment, admin, host: str, task_state=None):
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        instances = objects.InstanceList.get_by_host(cctxt, host)
    return [i for i in instances if task_state is None or i.task_state == task_state]


def _service_up(deployment, admin, host: str) -> bool:
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        return servicegroup.service_is_up(
            objects.Service.get_by_compute_host(cctxt, host)
        )


@pytest.mark.parametrize(
    "servers",
    [
        pytest.param(10, id="quick"),
        pytest.param(50, id="full", marks=pytest.mark.faults_full),
    ],
)
def test_kill_compute_mid_build(deployment, placement_endpoint, fault_report, servers):
    admin, user = harness.start_two_computes(deployment, "kill", SPAWN_SECONDS)
    victim = deployment.hosts[0]
    load = harness.BootDeleteLoad(
        deployment, user, make_flavor("fault", memory_mb=128), total=servers
    ).start()

    spawning = wait_for(
        lambda: _instances_of(deployment, admin, victim, task_states.SPAWNING),
        90,
        f"a build spawning on {victim}",
    )
    cleared_at = harness.kill_and_restart(deployment, victim, DEAD_SECONDS)
    load.wait()

    report = harness.FaultReport(
        f"kill -9 nova-compute mid-build ({len(spawning)} spawning), "
        f"restarted after {DEAD_SECONDS} s; {servers} servers"
    )
    harness.settle(deployment, admin, load, placement_endpoint, report, cleared_at, 180)
    fault_report(report)
    assert report.problems == []
    # What was spawning when it died ended in ERROR, saying why (unless its
    # user deleted it meanwhile).
    for instance in spawning:
        if instance.uuid in load.deleted:
            continue
        _, after = deployment.find_instance(admin, instance.uuid)
        assert after.vm_state == vm_states.ERROR, instance.uuid
        assert "restarted during the build" in after.fault.message


@pytest.mark.faults_full
def test_freeze_compute_past_service_down_time(
    deployment, placement_endpoint, fault_report
):
    # Guests of servers deleted while their host was down are found soon.
    deployment.compute_options["running_deleted_instance_poll_interval"] = 5
    admin, user = harness.start_two_computes(deployment, "freeze", SPAWN_SECONDS)
    victim = deployment.hosts[0]
    load = harness.BootDeleteLoad(
        deployment, user, make_flavor("fault", memory_mb=128), total=50
    ).start()
    # Frozen with servers built there (to delete while it is down) and
    # builds still coming.
    wait_for(
        lambda: (
            len(
                [
                    i
                    for i in _instances_of(deployment, admin, victim)
                    if i.vm_state == vm_states.ACTIVE
                ]
            )
            >= DELETED_WHILE_DOWN + 2
        ),
        90,
        f"servers ACTIVE on {victim}",
    )
    kept = {i.uuid for i in _instances_of(deployment, admin, victim)}
    deployment.signal(victim, signal.SIGSTOP)
    frozen_at = time.monotonic()
    try:
        wait_for(
            lambda: not _service_up(deployment, admin, victim),
            deployment.service_down_time * 4,
            f"{victim} to be reported down",
        )
        down_after = time.monotonic() - frozen_at
        # Its instances are kept while it is down.
        still = {i.uuid for i in _instances_of(deployment, admin, victim)}
        assert kept - load.deleted <= still
        # Its users may delete them meanwhile: deleted here, their guests
        # still on the frozen host.
        active = [
            i.uuid
            for i in _instances_of(deployment, admin, victim)
            if i.vm_state == vm_states.ACTIVE and i.uuid not in load.deleted
        ][:DELETED_WHILE_DOWN]
        assert active, f"no ACTIVE server on {victim} to delete"
        for uuid in active:
            load.delete(uuid)
    finally:
        deployment.signal(victim, signal.SIGCONT)
    cleared_at = thawed_at = time.monotonic()
    wait_for(
        lambda: _service_up(deployment, admin, victim),
        deployment.service_down_time * 4,
        f"{victim} to be up again",
    )
    up_after = time.monotonic() - thawed_at
    load.wait()

    report = harness.FaultReport(
        "SIGSTOP nova-compute past service_down_time, then SIGCONT; 50 servers"
    )
    report.notes["reported down after"] = f"{down_after:.1f} s"
    report.notes["up again after SIGCONT"] = f"{up_after:.1f} s"
    # The host thawed destroys the guests of what was deleted without it.
    harness.settle(deployment, admin, load, placement_endpoint, report, cleared_at, 180)
    report.notes["servers deleted while their host was down"] = len(active)
    fault_report(report)
    assert report.problems == []
