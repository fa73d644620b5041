"""Builds a dead conductor left behind end in ERROR with a fault saying
why, their Placement claims given back, instead of staying in BUILD for
ever.

Two orphans are planted as a conductor killed mid-build leaves them: a
build request whose message the superconductor took and never scheduled,
and an instance created in cell1 with its claim made but never cast to a
host. The conductors run with a short ``[conductor] orphaned_build_timeout``;
a server built meanwhile is left alone.

Conductors, scheduler and a compute are separate processes on real RabbitMQ
vhosts, with real Placement and a real database; this test process plays
nova-api.
"""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import exception, objects
from nova.states import vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor as make_flavor

pytestmark = [pytest.mark.rabbitmq]

ORPHAN_TIMEOUT = 10


@pytest.fixture
def common_options():
    return {"conductor": {"orphaned_build_timeout": ORPHAN_TIMEOUT}}


def _plant_instance_without_host(deployment, user, flavor, placement, host):
    """An instance in cell1, BUILDING with no host, its resources claimed:
    what a conductor killed between its hand-over and its cast leaves."""
    (uuid,) = deployment.boot(user, flavor, name="unhosted", cast=False)
    build_request = objects.BuildRequest.get_by_instance_uuid(user, uuid)
    with nova_context.target_cell(user, deployment.cell1) as cctxt:
        build_request.get_new_instance(cctxt).create()
        node = objects.ComputeNode.get_by_host_and_nodename(cctxt, host, host)
    mapping = objects.InstanceMapping.get_by_instance_uuid(user, uuid)
    mapping.cell_mapping = deployment.cell1
    mapping.save()
    build_request.destroy()
    resources = {"VCPU": 1, "MEMORY_MB": flavor.memory_mb, "DISK_GB": 1}
    assert placement.claim_resources(
        uuid,
        {"allocations": {node.uuid: {"resources": resources}}},
        user.project_id,
        user.user_id,
    )
    return uuid


@pytest.mark.parametrize("db_backend", ["mysql"], indirect=True)
def test_orphaned_builds_end_in_error_with_a_fault(deployment, placement_endpoint):
    admin = nova_context.get_admin_context()
    project = uuidutils.generate_uuid()
    user = nova_context.RequestContext(
        user_id="demo", project_id=project, roles=["member"], overwrite=False
    )
    placement = make_client(placement_endpoint)
    host = f"orphans-{uuidutils.generate_uuid()[:8]}"
    deployment.start_all([host], vcpus=8, memory_mb=8192, local_gb=100)
    deployment.wait_for_computes(admin)
    flavor = make_flavor("orphan", memory_mb=256)

    (never_scheduled,) = deployment.boot(user, flavor, name="lost", cast=False)
    unhosted = _plant_instance_without_host(deployment, user, flavor, placement, host)
    (healthy,) = deployment.boot(user, flavor, name="healthy")

    found = deployment.wait_for_states(
        admin,
        [never_scheduled, unhosted, healthy],
        {vm_states.ERROR, vm_states.ACTIVE},
        timeout=ORPHAN_TIMEOUT * 6,
    )
    cell, lost = found[never_scheduled]
    assert cell.is_cell0()
    assert (lost.vm_state, lost.task_state) == (vm_states.ERROR, None)
    assert "stopped mid-build" in lost.fault.message
    with pytest.raises(exception.BuildRequestNotFound):
        objects.BuildRequest.get_by_instance_uuid(admin, never_scheduled)

    cell, stuck = found[unhosted]
    assert cell.uuid == deployment.cell1.uuid
    assert (stuck.vm_state, stuck.task_state) == (vm_states.ERROR, None)
    assert "stopped mid-build" in stuck.fault.message
    assert not placement.get_allocations_for_consumer(unhosted).allocations

    # The server built meanwhile was not taken for an orphan.
    assert found[healthy][1].vm_state == vm_states.ACTIVE
    assert placement.get_usages(project) == {"VCPU": 1, "MEMORY_MB": 256, "DISK_GB": 1}
