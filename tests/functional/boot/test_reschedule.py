"""Reschedules end to end: a build failing on its host moves to an
alternate (allocation moved in the real Placement) without a second
scheduling; two builds racing into an anti-affinity group on one host are
caught by the compute's late check and one is rescheduled."""

from __future__ import annotations

import pytest

from nova import context as nova_context
from nova import objects
from nova.states import vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor, member_context

pytestmark = [
    pytest.mark.rabbitmq,
    # Five processes per test: SQLite only, the boot test covers MariaDB.
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


def _node_uuid(deployment, host):
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, deployment.cell1) as cctxt:
        return objects.ComputeNodeList.get_all_by_host(cctxt, host)[0].uuid


def _boot_into_group(deployment, monkeypatch, policy: str, count: int) -> list[str]:
    """Boot ``count`` servers into a new group of ``policy`` in one request,
    doing what nova-api does with the ``group`` hint."""
    admin = nova_context.get_admin_context()
    user = member_context()
    group = objects.InstanceGroup(
        admin, name="g", policy=policy, rules={}, members=[],
        project_id=user.project_id, user_id=user.user_id,
    )  # fmt: skip
    group.create()
    original = objects.RequestSpec.from_components

    def with_group(context, instance_uuid, *args, **kwargs):
        objects.InstanceGroup.add_members(admin, group.uuid, [instance_uuid])
        spec = original(context, instance_uuid, *args, **kwargs)
        spec.instance_group = objects.InstanceGroup.get_by_uuid(admin, group.uuid)
        spec.instance_group.hosts = []
        return spec

    monkeypatch.setattr(objects.RequestSpec, "from_components", with_group)
    return deployment.boot(user, flavor("m1", memory_mb=512), count=count, name="g")


def test_failed_spawn_is_rescheduled_with_its_allocation(
    deployment, placement_endpoint
):
    deployment.start_big_and_small(big_fails=True)
    big, small = deployment.hosts
    admin = nova_context.get_admin_context()
    placement = make_client(placement_endpoint)
    (uuid,) = deployment.boot(member_context(), flavor("m1", memory_mb=512), name="re")
    _, instance = deployment.wait_for_states(
        admin, [uuid], {vm_states.ACTIVE, vm_states.ERROR}
    )[uuid]
    assert instance.vm_state == vm_states.ACTIVE, instance.fault
    assert instance.host == small
    allocations = placement.get_allocations_for_consumer(uuid).allocations
    assert list(allocations) == [_node_uuid(deployment, small)]
    assert placement.get_provider_usages(_node_uuid(deployment, big))["MEMORY_MB"] == 0
    assert "Rescheduling" in deployment.log_tail(big, lines=400)


def test_running_out_of_alternates_names_every_attempt(deployment, placement_endpoint):
    # One attempt only: no alternate to fall back on.
    deployment.start_big_and_small(
        big_fails=True, scheduler_options={"scheduler": {"max_attempts": 1}}
    )
    admin = nova_context.get_admin_context()
    placement = make_client(placement_endpoint)
    (uuid,) = deployment.boot(member_context(), flavor("m1", memory_mb=512), name="re")
    _, instance = deployment.wait_for_states(
        admin, [uuid], {vm_states.ACTIVE, vm_states.ERROR}
    )[uuid]
    assert instance.vm_state == vm_states.ERROR
    assert "Exceeded maximum number of retries" in instance.fault.message
    assert deployment.hosts[0] in instance.fault.message
    assert "set to fail spawns" in instance.fault.message
    assert placement.get_allocations_for_consumer(uuid).allocations == {}


def test_late_check_reschedules_an_anti_affinity_race(
    deployment, placement_endpoint, monkeypatch
):
    # Without the filter, and stacking, the scheduler puts both on one host:
    # as two schedulers racing would. The computes must catch it.
    deployment.start_big_and_small(scheduler_options={"filter_scheduler": {
        "enabled_filters": "ComputeFilter",
        "weight_classes": "nova.scheduler.weights.resources.RAMWeigher",
        "ram_weight_multiplier": -1.0,
    }})  # fmt: skip
    admin = nova_context.get_admin_context()
    uuids = _boot_into_group(deployment, monkeypatch, "anti-affinity", count=2)
    found = deployment.wait_for_states(
        admin, uuids, {vm_states.ACTIVE, vm_states.ERROR}
    )
    instances = [instance for _, instance in found.values()]
    assert {i.vm_state for i in instances} == {vm_states.ACTIVE}, [
        i.fault.message for i in instances if i.fault
    ]
    assert {i.host for i in instances} == set(deployment.hosts)
    logs = "".join(deployment.log_tail(h, lines=400) for h in deployment.hosts)
    assert "Anti-affinity instance group policy was violated" in logs


def test_soft_affinity_weigher_keeps_a_group_together(deployment, monkeypatch):
    # The resource weighers spread; a heavy soft-affinity multiplier wins.
    deployment.start_big_and_small(scheduler_options={"filter_scheduler": {
        "soft_affinity_weight_multiplier": 10.0,
    }})  # fmt: skip
    admin = nova_context.get_admin_context()
    uuids = _boot_into_group(deployment, monkeypatch, "soft-affinity", count=3)
    found = deployment.wait_for_states(
        admin, uuids, {vm_states.ACTIVE, vm_states.ERROR}
    )
    instances = [instance for _, instance in found.values()]
    assert {i.vm_state for i in instances} == {vm_states.ACTIVE}
    assert len({i.host for i in instances}) == 1
