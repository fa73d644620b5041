"""os-resetState: an admin forces vm_state active or error, clearing the
task; nobody else may."""

from __future__ import annotations

import uuid

import pytest

from tests.functional.api.conftest import fault
from tests.functional.compute_actions.conftest import (
    ADMIN,
    action,
    cell_instance,
    server,
)

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _reset(state):
    return {"os-resetState": {"state": state}}


def test_admin_resets_a_stuck_server(api, nova_conf, flavor):
    instance = server(nova_conf, vm_state="stopped", task_state="powering-on")
    response = action(api, instance.uuid, _reset("error"), token=ADMIN)
    assert response.status_code == 202, response.text
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.vm_state, stored.task_state) == ("error", None)
    shown = api.get(f"/v2.1/servers/{instance.uuid}").json()["server"]
    assert shown["status"] == "ERROR"

    assert action(api, instance.uuid, _reset("active"), token=ADMIN).status_code == 202
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.vm_state, stored.task_state) == ("active", None)
    actions = api.get(
        f"/v2.1/servers/{instance.uuid}/os-instance-actions", token=ADMIN
    ).json()["instanceActions"]
    assert [a["action"] for a in actions] == ["resetState", "resetState"]


def test_only_admins_and_valid_states(api, nova_conf, flavor):
    instance = server(nova_conf, task_state="rebooting")
    assert fault(action(api, instance.uuid, _reset("error"))) == (
        "forbidden",
        403,
        "Policy doesn't allow os_compute_api:os-admin-actions:reset_state "
        "to be performed.",
    )
    for bad in (
        _reset("stopped"),
        _reset(None),
        {"os-resetState": {}},
        {"os-resetState": {"state": "active", "extra": 1}},
        {"os-resetState": None},
    ):
        assert fault(action(api, instance.uuid, bad, token=ADMIN))[:2] == (
            "badRequest",
            400,
        ), bad
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.vm_state, stored.task_state) == ("active", "rebooting")
    missing = action(api, str(uuid.uuid4()), _reset("error"), token=ADMIN)
    assert fault(missing)[:2] == ("itemNotFound", 404)
