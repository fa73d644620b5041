"""Boot end to end: superconductor, scheduler, cell conductor and two computes
as separate processes on real RabbitMQ vhosts, real Placement and real
databases; this test process plays nova-api."""

from __future__ import annotations

import collections

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects, servicegroup
from nova.states import vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor, wait_for

pytestmark = [pytest.mark.rabbitmq]

HOSTS = ["boot-host-a", "boot-host-b"]


# SQLite and MariaDB: each run starts five processes, so PostgreSQL is left
# to the object and service tests, which run on every backend.
@pytest.mark.parametrize(
    "db_backend",
    ["sqlite", pytest.param("mysql", marks=pytest.mark.mysql)],
    indirect=True,
)
def test_boot_spread_fail_and_delete(deployment, placement_endpoint):
    admin = nova_context.get_admin_context()
    project = uuidutils.generate_uuid()
    user_context = nova_context.RequestContext(
        user_id="demo", project_id=project, roles=["member"], overwrite=False
    )
    placement = make_client(placement_endpoint)
    # Unique host names: Placement is shared with other tests.
    suffix = uuidutils.generate_uuid()[:8]
    deployment.start_all(
        [f"{host}-{suffix}" for host in HOSTS], vcpus=16, memory_mb=8192, local_gb=100
    )
    deployment.wait_for_computes(admin)

    # Ten servers in one request: all ACTIVE, spread over both hosts.
    small = flavor("small", memory_mb=512, vcpus=1, root_gb=1, swap=512)
    uuids = deployment.boot(user_context, small, count=10, name="web")
    found = deployment.wait_for_states(
        admin, uuids, {vm_states.ACTIVE, vm_states.ERROR}
    )
    instances = [instance for _, instance in found.values()]
    assert {i.vm_state for i in instances} == {vm_states.ACTIVE}, [
        (i.uuid, i.fault.message if i.fault else None) for i in instances
    ]
    assert all(i.task_state is None and i.launched_at for i in instances)
    per_host = collections.Counter(i.host for i in instances)
    assert set(per_host) == set(deployment.hosts)
    assert abs(per_host[deployment.hosts[0]] - per_host[deployment.hosts[1]]) <= 2
    assert all(i.node == i.host for i in instances)
    assert {cell.uuid for cell, _ in found.values()} == {deployment.cell1.uuid}
    assert placement.get_usages(project) == {
        "VCPU": 10,
        "MEMORY_MB": 5120,
        "DISK_GB": 20,  # 1 root + 512 MiB swap rounded up to 1 GiB
    }
    # Their build requests are gone; the create action succeeded on the host.
    for uuid in uuids:
        with pytest.raises(Exception, match="BuildRequest not found"):
            objects.BuildRequest.get_by_instance_uuid(admin, uuid)
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        action = objects.InstanceActionList.get_by_instance_uuid(cctxt, uuids[0])[0]
        events = objects.InstanceActionEventList.get_by_action(cctxt, action.id)
    assert action.action == "create"
    assert [(e.event, e.result) for e in events] == [
        ("compute_build_and_run_instance", "Success")
    ]

    # A flavor no host can fit ends in cell0, saying which resource lacks.
    huge = flavor("huge", memory_mb=10**9)
    [failed] = deployment.boot(user_context, huge, name="huge")
    cell, instance = deployment.wait_for_states(admin, [failed], {vm_states.ERROR})[
        failed
    ]
    assert cell.is_cell0()
    assert "No valid host was found" in instance.fault.message
    assert "MEMORY_MB" in instance.fault.message, instance.fault.message
    with nova_context.target_cell(admin, cell) as cctxt:
        action = objects.InstanceActionList.get_by_instance_uuid(cctxt, failed)[0]
        [event] = objects.InstanceActionEventList.get_by_action(cctxt, action.id)
    assert event.event == "conductor_schedule_and_build_instances"
    assert event.result == "Error"
    assert "MEMORY_MB (requested 1000000000)" in event.details

    # Deleting frees the allocations and soft-deletes the instances.
    for uuid in uuids:
        deployment.delete(user_context, uuid)
    wait_for(
        lambda: all(deployment.find_instance(admin, u)[1].deleted for u in uuids),
        30,
        "instances to be deleted",
    )
    deleted = [deployment.find_instance(admin, u)[1] for u in uuids]
    assert {i.vm_state for i in deleted} == {vm_states.DELETED}
    wait_for(
        lambda: (
            placement.get_usages(project)
            in ({}, {"VCPU": 0, "MEMORY_MB": 0, "DISK_GB": 0})
        ),
        30,
        "allocations to be removed",
    )

    # A stopped compute exits cleanly and is reported down.
    stopped = deployment.hosts[0]
    assert deployment.stop(stopped) == 0
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        wait_for(
            lambda: (
                not servicegroup.service_is_up(
                    objects.Service.get_by_compute_host(cctxt, stopped)
                )
            ),
            deployment.service_down_time + 5,
            f"{stopped} to be reported down",
        )
        other = objects.Service.get_by_compute_host(cctxt, deployment.hosts[1])
        assert servicegroup.service_is_up(other)
