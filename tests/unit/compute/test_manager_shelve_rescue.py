"""The compute manager's rescue and unrescue (and the rescue_timeout
periodic task), with the fake driver and real Placement (see test_manager)."""

# Tests take test_manager's ``compute`` fixture as an argument of that name.
# ruff: noqa: F811

import datetime

from oslo_utils import uuidutils

from nova import exception, objects
from nova.compute import power_state, task_states, vm_states
from nova.conf import CONF
from tests.unit.compute.test_manager import compute  # noqa: F401  (fixture)
from tests.unit.compute.test_manager_power import _active, _with_task

RESCUE_IMAGE = uuidutils.generate_uuid()


def _state(instance):
    instance.refresh()
    return instance.vm_state, instance.task_state, instance.power_state


def _guest(compute, instance):
    return compute.driver._guest(instance)


def test_rescue_then_unrescue(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    launched = instance.launched_at
    compute.rescue_instance(
        ctxt,
        _with_task(instance, task_states.RESCUING),
        rescue_password="s3cret",
        rescue_image_ref=RESCUE_IMAGE,
    )
    assert _state(instance) == (vm_states.RESCUED, None, power_state.RUNNING)
    assert _guest(compute, instance).rescue_image_ref == RESCUE_IMAGE
    # The rescue clock restarts.
    assert instance.launched_at > launched

    compute.unrescue_instance(ctxt, _with_task(instance, task_states.UNRESCUING))
    assert _state(instance) == (vm_states.ACTIVE, None, power_state.RUNNING)
    assert _guest(compute, instance).rescue_image_ref is None


def test_rescue_without_an_image_uses_the_instance_own(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    instance.image_ref = uuidutils.generate_uuid()
    instance.save()
    compute.rescue_instance(ctxt, _with_task(instance, task_states.RESCUING))
    assert _guest(compute, instance).rescue_image_ref == instance.image_ref


def test_rescue_of_a_stopped_instance_runs_the_rescue_guest(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    assert _state(instance)[0] == vm_states.STOPPED
    compute.rescue_instance(
        ctxt,
        _with_task(instance, task_states.RESCUING),
        rescue_image_ref=RESCUE_IMAGE,
    )
    assert _state(instance) == (vm_states.RESCUED, None, power_state.RUNNING)


def test_failed_rescue_keeps_the_state_and_leaves_a_fault(
    compute, placement_client, monkeypatch
):
    ctxt, instance = _active(compute, placement_client)

    def broken(*args, **kwargs):
        raise exception.HypervisorUnavailable(reason="rescue broke")

    monkeypatch.setattr(compute.driver, "rescue", broken)
    compute.rescue_instance(
        ctxt, _with_task(instance, task_states.RESCUING), rescue_image_ref=RESCUE_IMAGE
    )
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "rescue broke" in faults[0].message


def _rescued(compute, placement_client, rescued_seconds_ago: int):
    ctxt, instance = _active(compute, placement_client)
    objects.InstanceAction.action_start(ctxt, instance.uuid, "rescue")
    compute.rescue_instance(
        ctxt, _with_task(instance, task_states.RESCUING), rescue_image_ref=RESCUE_IMAGE
    )
    instance.refresh()
    instance.launched_at = instance.launched_at.replace(tzinfo=None) - (
        datetime.timedelta(seconds=rescued_seconds_ago)
    )
    instance.save()
    return ctxt, instance


def test_rescue_timeout_unrescues_only_the_expired(compute, placement_client):
    CONF.set_override("rescue_timeout", 600)
    try:
        ctxt, expired = _rescued(compute, placement_client, 601)
        _, recent = _rescued(compute, placement_client, 10)
        names = [task.name for task in compute.periodic_tasks()]
        assert "poll_rescued_instances" in names
        compute._poll_rescued_instances(ctxt)
    finally:
        CONF.clear_override("rescue_timeout")
    assert _state(expired) == (vm_states.ACTIVE, None, power_state.RUNNING)
    assert _state(recent)[0] == vm_states.RESCUED
    actions = objects.InstanceActionList.get_by_instance_uuid(ctxt, expired.uuid)
    assert actions[0].action == "unrescue"


def test_rescue_timeout_zero_never_unrescues(compute, placement_client):
    ctxt, instance = _rescued(compute, placement_client, 10**6)
    assert "poll_rescued_instances" not in [t.name for t in compute.periodic_tasks()]
    compute._poll_rescued_instances(ctxt)
    assert _state(instance)[0] == vm_states.RESCUED


def test_restart_clears_an_interrupted_rescue(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    _with_task(instance, task_states.RESCUING)
    compute._recover_instances(ctxt)
    assert _state(instance)[:2] == (vm_states.ACTIVE, None)
