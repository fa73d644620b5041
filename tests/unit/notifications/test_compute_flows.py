"""What the compute flows announce, with the fake driver, real Placement and
oslo.messaging's in-memory notification driver; and that a notification
that cannot be built or sent never fails the action."""

# Tests take test_manager's ``compute`` fixture as an argument of that name.
# ruff: noqa: F811

from __future__ import annotations

import logging

import oslo_messaging
import pytest

from nova import context, exception
from nova.notifications.payloads import instance as payloads
from nova.states import task_states, vm_states
from tests.fixtures import notification_samples
from tests.unit.compute.test_manager import (  # noqa: F401  (fixture)
    _build,
    _scheduled_instance,
    compute,
)


def _with_task(instance, task_state):
    instance.task_state = task_state
    instance.save()
    return instance


def _scheduled(compute, placement_client):
    ctxt = context.RequestContext(user_id="u1", project_id="p1", is_admin=True)
    instance = _scheduled_instance(compute, placement_client, ctxt)
    # What the compute API gives every server.
    instance.reservation_id = "r-1"
    instance.display_name = instance.hostname = "web-1"
    instance.image_ref = "6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50"
    instance.save()
    return ctxt, instance


def _active(compute, placement_client):
    ctxt, instance = _scheduled(compute, placement_client)
    _build(compute, ctxt, instance)
    instance.refresh()
    assert instance.vm_state == vm_states.ACTIVE
    return ctxt, instance


def test_build_and_power_actions_announce_start_update_end(
    compute, placement_client, sent
):
    ctxt, instance = _active(compute, placement_client)
    rescue_image = "a2459075-d96c-40d5-893e-577ff92e721c"

    def rescue(ctxt, instance):
        compute.rescue_instance(ctxt, instance, rescue_image_ref=rescue_image)

    steps = (
        (compute.stop_instance, task_states.POWERING_OFF, "power_off"),
        (compute.start_instance, task_states.POWERING_ON, "power_on"),
        (compute.pause_instance, task_states.PAUSING, "pause"),
        (compute.unpause_instance, task_states.UNPAUSING, "unpause"),
        (compute.suspend_instance, task_states.SUSPENDING, "suspend"),
        (compute.resume_instance, task_states.RESUMING, "resume"),
        (rescue, task_states.RESCUING, "rescue"),
        (compute.unrescue_instance, task_states.UNRESCUING, "unrescue"),
        (compute.soft_delete_instance, task_states.SOFT_DELETING, "soft_delete"),
        (compute.restore_instance, task_states.RESTORING, "restore"),
    )
    expected = [
        "instance.create.start",
        "instance.update",
        "instance.create.end",
    ]
    for method, task, action in steps:
        method(ctxt, _with_task(instance, task))
        instance.refresh()
        expected += [f"instance.{action}.start", "instance.update"]
        expected.append(f"instance.{action}.end")
    compute.terminate_instance(ctxt, _with_task(instance, task_states.DELETING))
    expected += ["instance.delete.start", "instance.delete.end"]

    assert sent.events() == expected
    received = sent.refresh()
    notification_samples.check_all(received)
    assert {n["publisher_id"] for n in received} == {f"nova-compute:{compute.host}"}
    rescue_end = next(n for n in received if n["event_type"] == "instance.rescue.end")
    assert rescue_end["payload"]["nova_object.data"]["rescue_image_ref"] == rescue_image


def test_a_failed_action_announces_its_error_with_the_fault(
    compute, placement_client, sent, monkeypatch
):
    ctxt, instance = _active(compute, placement_client)

    def broken(*args, **kwargs):
        raise oslo_messaging.MessagingTimeout("the hypervisor is away")

    monkeypatch.setattr(compute.driver, "reboot", broken)
    compute.reboot_instance(ctxt, _with_task(instance, task_states.REBOOTING))
    error, compute_exception = sent.refresh()[-2:]
    assert error["event_type"] == "instance.reboot.error"
    assert compute_exception["event_type"] == "compute.exception"
    notification_samples.check_all([error, compute_exception])
    assert compute_exception["payload"]["nova_object.data"]["exception"] == (
        "MessagingTimeout"
    )
    fault = error["payload"]["nova_object.data"]["fault"]["nova_object.data"]
    assert fault["exception"] == "MessagingTimeout"
    assert fault["function_name"] == "broken"
    assert "instance.reboot.end" not in sent.events()


@pytest.mark.parametrize("sent", ["unversioned"], indirect=True)
def test_unversioned_format_sends_the_legacy_ones_only(compute, placement_client, sent):
    ctxt, instance = _active(compute, placement_client)
    compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    assert sent.events() == [
        "compute.instance.create.start",
        "compute.instance.update",
        "compute.instance.create.end",
        "compute.instance.power_off.start",
        "compute.instance.update",
        "compute.instance.power_off.end",
    ]
    payload = sent[-1]["payload"]
    assert payload["instance_id"] == instance.uuid
    assert (payload["state"], payload["power_state"]) == ("stopped", "shutdown")
    assert payload["instance_type"] == instance.flavor.name


def test_no_state_change_notifications_unless_asked(compute, placement_client, sent):
    from nova.conf import CONF

    CONF.set_override("notify_on_state_change", None, group="notifications")
    ctxt, instance = _active(compute, placement_client)
    assert "instance.update" not in sent.events()


def _notifier_lines(caplog) -> list[str]:
    """What the notifier logged; other loggers (the flow's own warnings, at
    whatever level earlier tests left them) are not the subject here."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("nova.notifications")
    ]


def test_a_notification_that_cannot_be_sent_fails_nothing(
    compute, placement_client, sent, monkeypatch, caplog
):
    ctxt, instance = _active(compute, placement_client)

    def unreachable(*args, **kwargs):
        raise oslo_messaging.MessageDeliveryFailure("broker gone")

    monkeypatch.setattr(oslo_messaging.Notifier, "_notify", unreachable)
    with caplog.at_level(logging.ERROR, logger="nova.notifications"):
        compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.STOPPED, None)
    failures = _notifier_lines(caplog)
    # Each lost notification is logged once.
    assert failures == [
        "Could not send notification instance.power_off.start",
        "Could not send notification instance.update",
        "Could not send notification instance.power_off.end",
    ]


def test_a_payload_that_cannot_be_built_fails_nothing(
    compute, placement_client, sent, monkeypatch, caplog
):
    ctxt, instance = _active(compute, placement_client)

    def unbuildable(self, *args, **kwargs):
        raise KeyError("flavor")

    monkeypatch.setattr(payloads.InstanceActionPayload, "__init__", unbuildable)
    with caplog.at_level(logging.ERROR, logger="nova.notifications"):
        compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.STOPPED, None)
    assert _notifier_lines(caplog) == [
        "Could not send notification instance.power_off.start",
        "Could not send notification instance.power_off.end",
    ]
    # instance.update's payload is another class: it still went out.
    assert "instance.update" in sent.events()


def test_a_failed_build_announces_create_error(
    compute, placement_client, sent, monkeypatch
):
    ctxt, instance = _scheduled(compute, placement_client)

    def spawn(*args, **kwargs):
        raise exception.InvalidInput(reason="the image is not bootable")

    monkeypatch.setattr(compute.driver, "spawn", spawn)
    _build(compute, ctxt, instance)
    assert sent.events() == ["instance.create.start", "instance.create.error"]
    notification_samples.check_all(sent)
    fault = sent[1]["payload"]["nova_object.data"]["fault"]["nova_object.data"]
    # The build gives up on this host (no alternate to reschedule to).
    assert fault["exception"] == "RescheduledException"
    assert "the image is not bootable" in fault["exception_message"]


def test_trigger_crash_dump_announces_start_and_end(compute, placement_client, sent):
    ctxt, instance = _active(compute, placement_client)
    compute.trigger_crash_dump(ctxt, instance)
    assert sent.events()[-2:] == [
        "instance.trigger_crash_dump.start",
        "instance.trigger_crash_dump.end",
    ]
    notification_samples.check_all(sent[-2:])


@pytest.mark.parametrize("sent", ["both"], indirect=True)
def test_both_formats_send_each_event_twice(compute, placement_client, sent):
    ctxt, instance = _active(compute, placement_client)
    compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    assert sent.events()[-6:] == [
        "instance.power_off.start",
        "compute.instance.power_off.start",
        "instance.update",
        "compute.instance.update",
        "instance.power_off.end",
        "compute.instance.power_off.end",
    ]


def test_the_api_claiming_a_task_announces_an_update_when_task_states_count(
    compute, placement_client, sent
):
    from nova.compute.api.base import FlowAPI
    from nova.conf import CONF
    from nova.states import machine

    ctxt, instance = _active(compute, placement_client)
    sent.refresh()
    before = len(sent)
    FlowAPI.claim_task(instance, machine.STOP)
    assert sent.events()[before:] == []  # vm_state only: the task is no news
    instance.task_state = None
    instance.save()
    CONF.set_override("notify_on_state_change", "vm_and_task_state", "notifications")
    try:
        FlowAPI.claim_task(instance, machine.STOP)
    finally:
        CONF.clear_override("notify_on_state_change", "notifications")
    [update] = sent.refresh()[before:]
    notification_samples.check(update)
    state = update["payload"]["nova_object.data"]["state_update"]["nova_object.data"]
    assert (state["old_task_state"], state["new_task_state"]) == (
        None,
        task_states.POWERING_OFF,
    )
