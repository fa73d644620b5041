"""GET /servers/{id}/diagnostics: asked of the server's nova-compute over
real RabbitMQ; free-form before 2.48, the standard shape from 2.48."""

from __future__ import annotations

import pytest

from nova.states import power_state
from nova.virt import driver as virt_driver
from tests.functional.api.conftest import fault
from tests.functional.compute_actions.conftest import ADMIN, server

pytestmark = [
    pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True),
    pytest.mark.rabbitmq,
]


def _diagnostics(api, uuid, version="2.1", token=ADMIN):
    return api.get(f"/v2.1/servers/{uuid}/diagnostics", token=token, version=version)


def test_free_form_then_standard_shape(api, nova_conf, flavor, compute_host):
    instance = server(nova_conf, compute_host)
    old = _diagnostics(api, instance.uuid, "2.47")
    assert old.status_code == 200, old.text
    assert old.json()["cpu0_time"] == 17300000000
    assert old.json()["memory"] == 512 * 1024

    new = _diagnostics(api, instance.uuid, "2.48")
    assert new.status_code == 200, new.text
    body = new.json()
    assert set(body) == {
        "state", "driver", "hypervisor", "hypervisor_os", "uptime", "config_drive",
        "num_cpus", "num_nics", "num_disks", "memory_details", "cpu_details",
        "nic_details", "disk_details",
    }  # fmt: skip
    assert (body["state"], body["driver"], body["num_cpus"]) == (
        "running",
        "libvirt",
        1,
    )
    assert body["memory_details"] == {"maximum": 512, "used": 0}
    assert body["cpu_details"] == [{"id": 0, "time": 17300000000, "utilisation": 15}]
    assert body["nic_details"][0]["mac_address"] == "01:23:45:67:89:ab"
    assert body["disk_details"][0]["read_bytes"] == 262144


def test_admin_only_and_other_projects(api, nova_conf, flavor, compute_host):
    instance = server(nova_conf, compute_host)
    assert fault(_diagnostics(api, instance.uuid, token="demo:demo")) == (
        "forbidden",
        403,
        "Policy doesn't allow os_compute_api:os-server-diagnostics to be performed.",
    )
    theirs = server(nova_conf, project="other")
    assert fault(_diagnostics(api, theirs.uuid, token="demo:demo"))[1] == 404


def test_conflicts_and_unsupported(api, nova_conf, flavor, compute_host, monkeypatch):
    # Not running: the compute refuses.
    stopped = server(nova_conf, compute_host, vm_state="stopped")
    compute_host.driver.power_off(stopped)
    for version in ("2.1", "2.48"):
        name, code, message = fault(_diagnostics(api, stopped.uuid, version))
        assert (name, code) == ("conflictingRequest", 409)
        assert "power state shutdown" in message
    # On no host.
    unplaced = server(nova_conf, host=None, node=None, vm_state="error")
    assert fault(_diagnostics(api, unplaced.uuid))[:2] == ("conflictingRequest", 409)
    # A driver without diagnostics: 501.
    running = server(nova_conf, compute_host)
    for name in ("get_diagnostics", "get_instance_diagnostics"):
        monkeypatch.setattr(
            compute_host.driver,
            name,
            getattr(virt_driver.ComputeDriver, name).__get__(compute_host.driver),
        )
    for version in ("2.1", "2.48"):
        assert fault(_diagnostics(api, running.uuid, version))[:2] == (
            "notImplemented",
            501,
        )
    assert compute_host.driver.get_info(running).state == power_state.RUNNING
