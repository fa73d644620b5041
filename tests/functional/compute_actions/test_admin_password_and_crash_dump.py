"""changePassword (an RPC call to the compute_host) and trigger_crash_dump (a
cast, 2.17+) against a real ComputeManager over real RabbitMQ."""

from __future__ import annotations

import logging

import pytest

from nova.virt import driver as virt_driver
from tests.fixtures.secrets import secret
from tests.functional.api.conftest import fault
from tests.functional.boot.deployment import wait_for
from tests.functional.compute_actions.conftest import (
    action,
    cell_instance,
    server,
)

pytestmark = [
    pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True),
    pytest.mark.rabbitmq,
]

SECRET = secret("s3cret-Passw0rd")


def _change(password=SECRET):
    return {"changePassword": {"adminPass": password}}


def test_change_password_reaches_the_guest_and_never_the_log(
    api, nova_conf, flavor, compute_host, caplog
):
    instance = server(nova_conf, compute_host)
    caplog.set_level(logging.DEBUG)
    response = action(api, instance.uuid, _change())
    assert response.status_code == 202, response.text
    assert response.text == ""
    assert compute_host.driver._guest(instance).password_changes == 1
    stored = cell_instance(nova_conf, instance.uuid)
    assert (stored.vm_state, stored.task_state) == ("active", None)
    assert SECRET not in caplog.text
    actions = api.get(f"/v2.1/servers/{instance.uuid}/os-instance-actions").json()
    assert [a["action"] for a in actions["instanceActions"]] == ["changePassword"]


def test_change_password_refusals(api, nova_conf, flavor, compute_host, monkeypatch):
    instance = server(nova_conf, compute_host)
    for bad in (
        {"changePassword": {}},
        {"changePassword": {"adminPass": 1}},
        {"changePassword": {"adminPass": "x", "other": 1}},
    ):
        assert fault(action(api, instance.uuid, bad))[:2] == ("badRequest", 400), bad
    stopped = server(nova_conf, compute_host, vm_state="stopped")
    assert fault(action(api, stopped.uuid, _change()))[:2] == (
        "conflictingRequest",
        409,
    )
    theirs = server(nova_conf, project="other")
    assert fault(action(api, theirs.uuid, _change()))[1] == 404
    assert action(api, instance.uuid, {"lock": None}, token="admin:admin")
    assert fault(action(api, instance.uuid, _change())) == (
        "conflictingRequest",
        409,
        f"Instance {instance.uuid} is locked",
    )
    assert action(api, instance.uuid, {"unlock": None}, token="admin:admin")
    # The guest is off although the instance says active: the compute
    # refuses, and the task is cleared for the next try.
    compute_host.driver.power_off(instance)
    name, code, message = fault(action(api, instance.uuid, _change()))
    assert (name, code) == ("conflictingRequest", 409)
    assert "is not running" in message
    assert cell_instance(nova_conf, instance.uuid).task_state is None
    # A driver that cannot set passwords: 501, the task cleared.
    compute_host.driver.power_on(None, instance, [])
    monkeypatch.setattr(
        compute_host.driver,
        "set_admin_password",
        virt_driver.ComputeDriver.set_admin_password.__get__(compute_host.driver),
    )
    assert fault(action(api, instance.uuid, _change())) == (
        "notImplemented",
        501,
        "Unable to set password on instance",
    )
    assert cell_instance(nova_conf, instance.uuid).task_state is None


def test_trigger_crash_dump(api, nova_conf, flavor, compute_host):
    instance = server(nova_conf, compute_host)
    body = {"trigger_crash_dump": None}
    # The action exists from 2.17.
    assert fault(action(api, instance.uuid, body, version="2.16"))[:2] == (
        "itemNotFound",
        404,
    )
    assert fault(
        action(api, instance.uuid, {"trigger_crash_dump": {}}, version="2.17")
    )[:2] == ("badRequest", 400)
    response = action(api, instance.uuid, body, version="2.17")
    assert response.status_code == 202, response.text
    wait_for(
        lambda: compute_host.driver._guest(instance).crash_dumps == 1, 30, "the NMI"
    )
    actions = api.get(f"/v2.1/servers/{instance.uuid}/os-instance-actions").json()
    assert [a["action"] for a in actions["instanceActions"]] == ["trigger_crash_dump"]

    stopped = server(nova_conf, compute_host, vm_state="stopped")
    assert fault(action(api, stopped.uuid, body, version="2.17"))[:2] == (
        "conflictingRequest",
        409,
    )
    unplaced = server(nova_conf, host=None, node=None)
    assert fault(action(api, unplaced.uuid, body, version="2.17"))[:2] == (
        "conflictingRequest",
        409,
    )
    assert action(api, instance.uuid, {"lock": None}, token="admin:admin")
    assert fault(action(api, instance.uuid, body, version="2.17"))[:2] == (
        "conflictingRequest",
        409,
    )
    assert compute_host.driver._guest(instance).crash_dumps == 1
