"""Soft delete end to end: with ``reclaim_instance_interval`` > 0 a delete
powers the guest off and keeps the instance and its Placement allocation;
``restore`` brings it back, ``forceDelete`` deletes it at once and the
compute's periodic reclaim deletes it once the interval has passed.

Conductors, scheduler and two computes are separate processes on real
RabbitMQ vhosts, with real Placement and a real database; this test process
plays nova-api (the compute API layer below the HTTP handlers)."""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import exception
from nova.compute.api import delete as delete_api
from nova.compute.api import servers as server_api
from nova.conf import CONF
from nova.states import power_state, vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor as make_flavor
from tests.functional.boot.deployment import wait_for

pytestmark = [pytest.mark.rabbitmq]

# Long enough for the restore steps to beat the reclaim, short enough for
# the test to wait for one.
RECLAIM_SECONDS = 20


@pytest.fixture(scope="module", autouse=True)
def parsed_conf():
    # The compute API authorizes: policy files are looked up through CONF.
    CONF([], project="nova", default_config_files=[])


@pytest.fixture
def compute_options():
    return {"reclaim_instance_interval": RECLAIM_SECONDS}


def _settled(deployment, admin, uuid, vm_state, power):
    def done():
        found = deployment.find_instance(admin, uuid)
        instance = found[1] if found else None
        if (
            instance is not None
            and instance.vm_state == vm_state
            and instance.task_state is None
            and instance.power_state == power
        ):
            return instance
        return None

    return wait_for(done, 60, f"{uuid} {vm_state}/{power}")


def _gone(deployment, admin, uuid, timeout):
    def done():
        found = deployment.find_instance(admin, uuid)
        return found is not None and found[1].deleted

    wait_for(done, timeout, f"{uuid} deleted")


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_soft_delete_restore_force_delete_and_reclaim(deployment, placement_endpoint):
    admin = nova_context.get_admin_context()
    project = uuidutils.generate_uuid()
    user = nova_context.RequestContext(
        user_id="demo", project_id=project, roles=["member"], overwrite=False
    )
    placement = make_client(placement_endpoint)
    servers = server_api.ServersAPI()
    deletes = delete_api.DeleteAPI()
    deployment.start_all(
        [f"soft-del-{uuidutils.generate_uuid()[:8]}"],
        vcpus=4,
        memory_mb=4096,
        local_gb=20,
    )
    deployment.wait_for_computes(admin)

    flavor = make_flavor("soft", memory_mb=256)
    first, second = deployment.boot(user, flavor, count=2, name="soft")
    deployment.wait_for_states(admin, [first, second], {vm_states.ACTIVE})
    usage = {"VCPU": 2, "MEMORY_MB": 512, "DISK_GB": 2}
    assert placement.get_usages(project) == usage

    # Restoring what is not soft-deleted: 409, nothing changes.
    with pytest.raises(exception.InstanceInvalidState):
        deletes.restore(user, servers.get(user, first))

    # Delete: soft. Guest off, instance kept, allocations kept.
    deletes.delete(user, servers.get(user, first))
    soft = _settled(
        deployment, admin, first, vm_states.SOFT_DELETED, power_state.SHUTDOWN
    )
    assert soft.deleted_at is not None and not soft.deleted
    assert placement.get_usages(project) == usage

    # Restore: running and ACTIVE again, no longer marked for deletion.
    deletes.restore(user, servers.get(user, first))
    restored = _settled(deployment, admin, first, vm_states.ACTIVE, power_state.RUNNING)
    assert restored.deleted_at is None

    # Soft-delete again, then forceDelete: gone at once, resources freed.
    deletes.delete(user, servers.get(user, first))
    _settled(deployment, admin, first, vm_states.SOFT_DELETED, power_state.SHUTDOWN)
    deletes.force_delete(user, servers.get(user, first))
    _gone(deployment, admin, first, 60)
    assert placement.get_usages(project) == {"VCPU": 1, "MEMORY_MB": 256, "DISK_GB": 1}

    # Left soft-deleted: the compute reclaims it after the interval.
    deletes.delete(user, servers.get(user, second))
    _settled(deployment, admin, second, vm_states.SOFT_DELETED, power_state.SHUTDOWN)
    _gone(deployment, admin, second, RECLAIM_SECONDS * 4)
    assert placement.get_usages(project) in (
        {},
        {"VCPU": 0, "MEMORY_MB": 0, "DISK_GB": 0},
    )
