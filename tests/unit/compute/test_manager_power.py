"""The compute manager's power operations, power-state sync and recovery
on start, with the fake driver and real Placement (see test_manager)."""

# Tests take test_manager's ``compute`` fixture as an argument of that name.
# ruff: noqa: F811

from nova import context, exception, objects
from nova.states import power_state, task_states, vm_states
from tests.unit.compute.test_manager import (  # noqa: F401  (fixture)
    _build,
    _scheduled_instance,
    compute,
)


def _active(compute, placement_client):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    _build(compute, ctxt, instance)
    instance.refresh()
    assert instance.vm_state == vm_states.ACTIVE
    return ctxt, instance


def _with_task(instance, task_state, vm_state=None):
    instance.task_state = task_state
    if vm_state:
        instance.vm_state = vm_state
    instance.save()
    return instance


def test_power_actions_end_in_their_states(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    steps = (
        (compute.stop_instance, task_states.POWERING_OFF, vm_states.STOPPED,
         power_state.SHUTDOWN),
        (compute.start_instance, task_states.POWERING_ON, vm_states.ACTIVE,
         power_state.RUNNING),
        (compute.pause_instance, task_states.PAUSING, vm_states.PAUSED,
         power_state.PAUSED),
        (compute.unpause_instance, task_states.UNPAUSING, vm_states.ACTIVE,
         power_state.RUNNING),
        (compute.suspend_instance, task_states.SUSPENDING, vm_states.SUSPENDED,
         power_state.SUSPENDED),
        (compute.resume_instance, task_states.RESUMING, vm_states.ACTIVE,
         power_state.RUNNING),
        (compute.reboot_instance, task_states.REBOOTING_HARD, vm_states.ACTIVE,
         power_state.RUNNING),
    )  # fmt: skip
    for method, task, vm_state, power in steps:
        method(ctxt, _with_task(instance, task))
        instance.refresh()
        assert (instance.vm_state, instance.task_state, instance.power_state) == (
            vm_state,
            None,
            power,
        ), method.__name__


def test_failed_action_clears_the_task_and_leaves_a_fault(
    compute, placement_client, monkeypatch
):
    ctxt, instance = _active(compute, placement_client)

    def broken(_instance):
        raise exception.HypervisorUnavailable(reason="pause broke")

    monkeypatch.setattr(compute.driver, "pause", broken)
    compute.pause_instance(ctxt, _with_task(instance, task_states.PAUSING))
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "pause broke" in faults[0].message


def test_sync_stops_an_instance_whose_guest_went_off(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    compute.driver.power_off(instance)  # the guest shut itself down
    compute.power_sync.sync_power_states(ctxt)
    instance.refresh()
    assert (instance.vm_state, instance.power_state) == (
        vm_states.STOPPED,
        power_state.SHUTDOWN,
    )


def test_sync_powers_off_a_running_guest_of_a_stopped_instance(
    compute, placement_client
):
    ctxt, instance = _active(compute, placement_client)
    compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    compute.driver.power_on(ctxt, instance, [])
    compute.power_sync.sync_power_states(ctxt)
    instance.refresh()
    assert instance.vm_state == vm_states.STOPPED
    assert compute.driver.get_info(instance).state == power_state.SHUTDOWN


def test_sync_leaves_instances_with_a_task_alone(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    _with_task(instance, task_states.REBOOTING)
    compute.driver.power_off(instance)
    compute.power_sync.sync_power_states(ctxt)
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (
        vm_states.ACTIVE,
        task_states.REBOOTING,
    )


def test_start_finishes_or_clears_interrupted_power_tasks(compute, placement_client):
    ctxt = context.get_admin_context()
    _, stopping = _active(compute, placement_client)
    _with_task(stopping, task_states.POWERING_OFF)
    _, rebooting = _active(compute, placement_client)
    _with_task(rebooting, task_states.REBOOTING)
    compute.driver.power_off(rebooting)
    _, pausing = _active(compute, placement_client)
    _with_task(pausing, task_states.PAUSING)

    compute.recovery.recover_instances(ctxt)  # what init_host does after a crash
    for instance in (stopping, rebooting, pausing):
        instance.refresh()
    assert (stopping.vm_state, stopping.task_state) == (vm_states.STOPPED, None)
    assert (rebooting.vm_state, rebooting.task_state, rebooting.power_state) == (
        vm_states.ACTIVE,
        None,
        power_state.RUNNING,
    )
    assert (pausing.vm_state, pausing.task_state) == (vm_states.ACTIVE, None)


def test_console_output_tail(compute, placement_client, monkeypatch):
    ctxt, instance = _active(compute, placement_client)
    monkeypatch.setattr(
        compute.driver, "get_console_output", lambda c, i: "one\ntwo\nthree"
    )
    assert compute.get_console_output(ctxt, instance) == "one\ntwo\nthree"
    assert compute.get_console_output(ctxt, instance, tail_length=2) == "two\nthree"
    assert compute.get_console_output(ctxt, instance, tail_length=0) == ""
