"""lock / unlock: who may lock and unlock, what a lock refuses, the 2.73
reason and ``?locked=`` filter."""

from __future__ import annotations

import uuid

import pytest

from tests.functional.api.conftest import fault
from tests.functional.boot.deployment import wait_for
from tests.functional.compute_actions.conftest import (
    ADMIN,
    action,
    cell_instance,
    server,
)

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _shown(api, uuid, version="2.73", token=ADMIN):
    response = api.get(f"/v2.1/servers/{uuid}", token=token, version=version)
    assert response.status_code == 200, response.text
    return response.json()["server"]


def test_owner_lock_refuses_changes_until_unlocked(api, nova_conf, flavor):
    instance = server(nova_conf)
    assert action(api, instance.uuid, {"lock": None}).status_code == 202
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.locked, stored.locked_by) == (True, "owner")
    shown = _shown(api, instance.uuid, token="demo:demo")
    assert (shown["locked"], shown["locked_reason"]) == (True, None)
    assert "locked" not in _shown(api, instance.uuid, version="2.8")

    locked = f"Instance {instance.uuid} is locked"
    for body in ({"os-stop": None}, {"reboot": {"type": "HARD"}}, {"pause": None}):
        assert fault(action(api, instance.uuid, body)) == (
            "conflictingRequest",
            409,
            locked,
        ), body
    assert fault(api.delete(f"/v2.1/servers/{instance.uuid}")) == (
        "conflictingRequest",
        409,
        locked,
    )
    metadata = api.post(
        f"/v2.1/servers/{instance.uuid}/metadata", {"metadata": {"a": "b"}}
    )
    assert fault(metadata)[:2] == ("conflictingRequest", 409)
    # Nothing was half-done: no task started, no metadata written.
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.vm_state, stored.task_state, stored.metadata) == (
        "active",
        None,
        {},
    )

    assert action(api, instance.uuid, {"unlock": None}).status_code == 202
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.locked, stored.locked_by) == (False, None)
    metadata = api.post(
        f"/v2.1/servers/{instance.uuid}/metadata", {"metadata": {"a": "b"}}
    )
    assert metadata.status_code == 200, metadata.text
    actions = api.get(f"/v2.1/servers/{instance.uuid}/os-instance-actions").json()
    assert [a["action"] for a in actions["instanceActions"]] == ["unlock", "lock"]


def test_locked_reason_and_filter_from_2_73(api, nova_conf, flavor):
    locked = server(nova_conf, display_name="locked")
    free = server(nova_conf, display_name="free")
    body = {"lock": {"locked_reason": "under investigation"}}
    assert action(api, locked.uuid, body, version="2.73").status_code == 202
    assert _shown(api, locked.uuid)["locked_reason"] == "under investigation"
    assert _shown(api, free.uuid)["locked_reason"] is None

    def names(query, version="2.73"):
        response = api.get(f"/v2.1/servers?{query}", version=version)
        assert response.status_code == 200, response.text
        return sorted(s["name"] for s in response.json()["servers"])

    assert names("locked=true") == ["locked"]
    assert names("locked=false") == ["free"]
    # Unlocking forgets the reason.
    assert action(api, locked.uuid, {"unlock": None}).status_code == 202
    assert _shown(api, locked.uuid)["locked_reason"] is None
    assert "locked_reason" not in cell_instance(nova_conf, locked.uuid).system_metadata


def test_lock_body_validation(api, nova_conf, flavor):
    instance = server(nova_conf)
    for bad in (
        {"lock": {"locked_reason": ""}},
        {"lock": {"locked_reason": "x" * 256}},
        {"lock": {"reason": "typo"}},
        {"lock": "yes"},
    ):
        response = action(api, instance.uuid, bad, version="2.73")
        assert fault(response)[:2] == ("badRequest", 400), bad
    assert fault(action(api, instance.uuid, {"unlock": None, "x": 1}))[1] == 400
    assert cell_instance(nova_conf, instance.uuid).locked is False
    # Before 2.73 the value is not looked at, and no reason is kept.
    old = {"lock": {"locked_reason": "ignored"}}
    assert action(api, instance.uuid, old, version="2.72").status_code == 202
    stored = cell_instance(nova_conf, instance.uuid)
    assert stored.locked is True
    assert "locked_reason" not in stored.system_metadata


def test_admin_lock_needs_override_to_lift(api, nova_conf, flavor):
    instance = server(nova_conf)
    assert action(api, instance.uuid, {"lock": None}, token=ADMIN).status_code == 202
    assert cell_instance(nova_conf, instance.uuid).locked_by == "admin"
    refused = action(api, instance.uuid, {"unlock": None})
    assert fault(refused) == (
        "forbidden",
        403,
        "Policy doesn't allow os_compute_api:os-lock-server:unlock:"
        "unlock_override to be performed.",
    )
    assert cell_instance(nova_conf, instance.uuid).locked is True
    assert action(api, instance.uuid, {"unlock": None}, token=ADMIN).status_code == 202
    # An admin may lift the owner's lock: admins hold the override.
    assert action(api, instance.uuid, {"lock": None}).status_code == 202
    assert action(api, instance.uuid, {"unlock": None}, token=ADMIN).status_code == 202
    assert cell_instance(nova_conf, instance.uuid).locked is False


def test_other_project_and_missing_server_are_404(api, nova_conf, flavor):
    theirs = server(nova_conf, project="other")
    for name in ("lock", "unlock"):
        assert fault(action(api, theirs.uuid, {name: None}))[:2] == (
            "itemNotFound",
            404,
        )
        assert action(api, str(uuid.uuid4()), {name: None}).status_code == 404
    assert cell_instance(nova_conf, theirs.uuid).locked is False


def test_admin_may_act_on_a_locked_server(api, nova_conf, flavor, compute_host):
    instance = server(nova_conf, compute_host)
    assert action(api, instance.uuid, {"lock": None}).status_code == 202
    response = action(api, instance.uuid, {"os-stop": None}, token=ADMIN)
    assert response.status_code == 202, response.text
    wait_for(
        lambda: cell_instance(nova_conf, instance.uuid).vm_state == "stopped",
        30,
        "the stop",
    )
