"""The names the move steps go out under: upstream's versioned ones, and
its older unversioned ones (``compute.instance.finish_resize.start`` ...)
which consumers such as Ceilometer still match."""

from __future__ import annotations

import pytest

from nova.notifications import instance as instance_notifications
from tests.fixtures import notification_samples
from tests.unit.notifications.test_payloads import (  # noqa: F401  (fixture)
    _flavor,
    _instance,
    ctxt,
)

STEPS = [
    ("resize", "compute.instance.resize"),
    ("resize_finish", "compute.instance.finish_resize"),
    ("resize_confirm", "compute.instance.resize.confirm"),
    ("resize_revert", "compute.instance.resize.revert"),
    ("live_migration_pre", "compute.instance.live_migration.pre"),
    ("live_migration_post", "compute.instance.live_migration._post"),
    ("live_migration_post_dest", "compute.instance.live_migration.post.dest"),
    ("live_migration_rollback", "compute.instance.live_migration._rollback"),
    ("live_migration_rollback_dest", "compute.instance.live_migration.rollback.dest"),
    ("live_migration_abort", "compute.instance.live.migration.abort"),
    (
        "live_migration_force_complete",
        "compute.instance.live.migration.force.complete",
    ),
]


def _send_all(request_context, instance):
    for action, _ in STEPS:
        for phase in ("start", "end"):
            instance_notifications.move(
                request_context, instance, "compute-a", f"{action}.{phase}"
            )
    for phase in ("start", "end"):
        instance_notifications.resize_prep(
            request_context, instance, "compute-a", _flavor(name="medium"), phase
        )


def test_versioned_names_and_payloads(ctxt, sent):  # noqa: F811
    # Some task (a null in a sample admits any).
    instance = _instance(ctxt, task_state="migrating")
    _send_all(ctxt, instance)
    received = sent.refresh()
    assert [n["event_type"] for n in received] == [
        *(f"instance.{a}.{p}" for a, _ in STEPS for p in ("start", "end")),
        "instance.resize_prep.start",
        "instance.resize_prep.end",
    ]
    for notification in received:
        # Shape only: the states of a real move are the functional test's.
        sample = notification_samples.load(notification["event_type"])
        notification_samples.check_payload(notification["payload"], sample["payload"])
    new_flavor = received[-1]["payload"]["nova_object.data"]["new_flavor"]
    assert new_flavor["nova_object.data"]["name"] == "medium"


@pytest.mark.parametrize("sent", ["unversioned"], indirect=True)
def test_legacy_names(ctxt, sent):  # noqa: F811
    _send_all(ctxt, _instance(ctxt, task_state=None))
    assert sent.events() == [
        *(f"{legacy}.{p}" for _, legacy in STEPS for p in ("start", "end")),
        "compute.instance.resize.prep.start",
        "compute.instance.resize.prep.end",
    ]


@pytest.mark.parametrize("sent", ["unversioned"], indirect=True)
def test_interface_events_have_no_legacy_form(ctxt, sent):  # noqa: F811
    instance_notifications.notify_action(
        ctxt, _instance(ctxt), "compute-a", "interface_attach", "start"
    )
    assert sent.events() == []


def test_evacuate_is_one_event_from_the_destination(ctxt, sent):  # noqa: F811
    instance_notifications.evacuate(
        ctxt, _instance(ctxt, task_state="rebuilding"), "compute-b"
    )
    [notification] = sent.refresh()
    assert notification["event_type"] == "instance.evacuate"
    assert notification["publisher_id"] == "nova-compute:compute-b"
    sample = notification_samples.load("instance.evacuate")
    notification_samples.check_payload(notification["payload"], sample["payload"])


@pytest.mark.parametrize("sent", ["unversioned"], indirect=True)
def test_evacuate_has_no_legacy_form(ctxt, sent):  # noqa: F811
    instance_notifications.evacuate(ctxt, _instance(ctxt), "compute-b")
    assert sent.events() == []
