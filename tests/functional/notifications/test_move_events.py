"""Versioned notifications of moves, heard on ``versioned_notifications``
of real RabbitMQ as a consumer hears them, while a server on two fake
computes is resized and confirmed, cold-migrated and reverted, then
live-migrated through the HTTP API (the moves tests' deployment: the
superconductor, scheduler, cell conductor and computes as processes, real
Placement and a real database)."""

from __future__ import annotations

import pytest

from nova.states import vm_states
from tests.fixtures import notification_samples
from tests.functional.api.conftest import ADMIN
from tests.functional.moves.conftest import (  # noqa: F401  (fixtures)
    action,
    boot,
    cloud,
    common_options,
    compute_options,
    deployment,
    fake_driver_options,
    instance,
    settled,
)
from tests.functional.notifications.listener import listening

VERSIONED = {
    "notifications": {"notification_format": "versioned"},
    "oslo_messaging_notifications": {"driver": "messagingv2"},
}

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
    pytest.mark.parametrize("common_options", [VERSIONED], indirect=True),
]

RESIZE_TO_CONFIRM = [
    "instance.resize_prep.start",
    "instance.resize_prep.end",
    "instance.resize.start",
    "instance.resize.end",
    "instance.resize_finish.start",
    "instance.resize_finish.end",
]


def _accepted(response) -> None:
    assert response.status_code in (202, 204), response.text


def test_resize_migrate_and_live_migrate_are_announced_in_order(cloud):  # noqa: F811
    urls = [cloud.api_transport_url, cloud.cell1_transport_url]
    with listening(urls, "versioned_notifications") as heard:
        uuid = boot(cloud)
        first = instance(cloud, uuid).host
        [second] = [host for host in cloud.hosts if host != first]

        # No host has room for it: refused, and the conductor says why.
        response = action(cloud, uuid, {"resize": {"flavorRef": "huge"}})
        assert response.status_code == 400, response.text
        failed = heard.wait_for(
            "compute_task.migrate_server.error", uuid, key="instance_uuid"
        )
        settled(cloud, uuid, vm_states.ACTIVE)

        _accepted(action(cloud, uuid, {"resize": {"flavorRef": "medium"}}))
        settled(cloud, uuid, vm_states.RESIZED)
        _accepted(action(cloud, uuid, {"confirmResize": None}))
        heard.wait_for("instance.resize_confirm.end", uuid)
        settled(cloud, uuid, vm_states.ACTIVE)

        body = {"migrate": {"host": first}}
        _accepted(action(cloud, uuid, body, token=ADMIN, version="2.56"))
        settled(cloud, uuid, vm_states.RESIZED)
        _accepted(action(cloud, uuid, {"revertResize": None}))
        heard.wait_for("instance.resize_revert.end", uuid)
        settled(cloud, uuid, vm_states.ACTIVE)

        body = {"os-migrateLive": {"block_migration": "auto", "host": first}}
        _accepted(action(cloud, uuid, body, token=ADMIN, version="2.68"))
        heard.wait_for("instance.live_migration_post_dest.end", uuid)
        assert settled(cloud, uuid, vm_states.ACTIVE).host == first

    moves = [
        event
        for event in heard.events(uuid)
        if event.split(".")[1] not in ("create", "update")
    ]
    assert moves == [
        *RESIZE_TO_CONFIRM,
        "instance.resize_confirm.start",
        "instance.resize_confirm.end",
        *RESIZE_TO_CONFIRM,
        "instance.resize_revert.start",
        "instance.resize_revert.end",
        "instance.live_migration_pre.start",
        "instance.live_migration_pre.end",
        "instance.live_migration_post.start",
        "instance.live_migration_post.end",
        "instance.live_migration_post_dest.start",
        "instance.live_migration_post_dest.end",
    ]
    # Every notification heard has its sample (the scheduler's included).
    notification_samples.check_all(heard.received)
    scheduled = [n for n in heard.received if n["event_type"].startswith("scheduler.")]
    # The boot, the resize no host fits (no end), and each move (a named
    # host is checked by the scheduler too).
    pair = ["scheduler.select_destinations.start", "scheduler.select_destinations.end"]
    assert [n["event_type"] for n in scheduled] == [
        *pair,
        "scheduler.select_destinations.start",
        *pair * 3,
    ]
    reason = failed["payload"]["nova_object.data"]["reason"]["nova_object.data"]
    assert reason["exception"] == "NoValidHost"
    assert {n["payload"]["nova_object.data"]["instance_uuid"] for n in scheduled} == {
        uuid
    }

    def first_about(event: str) -> dict:
        return next(n for n in heard.about(uuid) if n["event_type"] == event)

    def publisher(event: str) -> str:
        return first_about(event)["publisher_id"].split(":", 1)[1]

    # Each step is announced by the host it runs on.
    assert publisher("instance.resize_prep.start") == second
    assert publisher("instance.resize.start") == first
    assert publisher("instance.resize_finish.end") == second
    assert publisher("instance.resize_confirm.end") == first
    prep = first_about("instance.resize_prep.start")
    new_flavor = prep["payload"]["nova_object.data"]["new_flavor"]
    assert new_flavor["nova_object.data"]["name"] == "medium"
