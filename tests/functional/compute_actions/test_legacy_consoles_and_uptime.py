"""The console server actions of 2.1-2.5, and a hypervisor's uptime asked
of its nova-compute over real RabbitMQ (its own resource before 2.88, a
field of the hypervisor from 2.88)."""

from __future__ import annotations

import json

import pytest

from nova import objects
from nova.virt import driver as virt_driver
from tests.functional.api.conftest import fault
from tests.functional.compute_actions.conftest import (
    ADMIN,
    COMPUTE_HOST,
    action,
    server,
)

pytestmark = [
    pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True),
    pytest.mark.rabbitmq,
]


def test_legacy_vnc_console_action(api, nova_conf, flavor, compute_host):
    instance = server(nova_conf, compute_host)
    body = {"os-getVNCConsole": {"type": "novnc"}}
    response = action(api, instance.uuid, body, version="2.5")
    assert response.status_code == 200, response.text
    console = response.json()["console"]
    assert console["type"] == "novnc"
    assert "token%3D" in console["url"]
    # Gone with 2.6, replaced by /remote-consoles.
    assert fault(action(api, instance.uuid, body, version="2.6"))[:2] == (
        "itemNotFound",
        404,
    )


def test_legacy_console_refusals(api, nova_conf, flavor):
    instance = server(nova_conf)
    for body in (
        {"os-getVNCConsole": {"type": "spice-html5"}},
        {"os-getVNCConsole": {}},
        {"os-getSPICEConsole": {"type": "spice-html5"}},
        {"os-getSerialConsole": {"type": "serial"}},
        {"os-getSerialConsole": {"type": "novnc"}},
    ):
        assert fault(action(api, instance.uuid, body))[:2] == ("badRequest", 400), body
    # RDP consoles are gone upstream.
    rdp = {"os-getRDPConsole": {"type": "rdp-html5"}}
    assert fault(action(api, instance.uuid, rdp))[1] == 410
    theirs = server(nova_conf, project="other")
    novnc = {"os-getVNCConsole": {"type": "novnc"}}
    assert fault(action(api, theirs.uuid, novnc))[1] == 404
    unplaced = server(nova_conf, host=None, node=None)
    assert fault(action(api, unplaced.uuid, novnc))[:2] == ("conflictingRequest", 409)


@pytest.fixture
def node(compute_host, compute_service):
    node = objects.ComputeNode(
        compute_service._context, host=COMPUTE_HOST,
        hypervisor_hostname=COMPUTE_HOST, vcpus=4, memory_mb=2048, local_gb=20,
        vcpus_used=0, memory_mb_used=0, local_gb_used=0, hypervisor_type="fake",
        hypervisor_version=1, cpu_info=json.dumps({}), supported_hv_specs=[],
        service_id=compute_service.id, free_ram_mb=2048, free_disk_gb=20,
        current_workload=0, running_vms=0, disk_available_least=20,
    )  # fmt: skip
    node.create()
    return node


def test_uptime_from_the_compute(api, nova_conf, flavor, compute_host, node):
    response = api.get(f"/v2.1/os-hypervisors/{node.id}/uptime", token=ADMIN)
    assert response.status_code == 200, response.text
    hypervisor = response.json()["hypervisor"]
    assert hypervisor["id"] == node.id
    assert hypervisor["hypervisor_hostname"] == COMPUTE_HOST
    assert " up " in hypervisor["uptime"]
    # 2.53 names it by uuid; 2.88 drops the resource for a field.
    by_uuid = api.get(
        f"/v2.1/os-hypervisors/{node.uuid}/uptime", token=ADMIN, version="2.53"
    )
    assert by_uuid.json()["hypervisor"]["id"] == node.uuid
    gone = api.get(
        f"/v2.1/os-hypervisors/{node.uuid}/uptime", token=ADMIN, version="2.88"
    )
    assert fault(gone)[:2] == ("itemNotFound", 404)
    shown = api.get(f"/v2.1/os-hypervisors/{node.uuid}", token=ADMIN, version="2.88")
    assert " up " in shown.json()["hypervisor"]["uptime"]
    assert fault(api.get(f"/v2.1/os-hypervisors/{node.id}/uptime"))[1] == 403
    assert fault(api.get("/v2.1/os-hypervisors/999999/uptime", token=ADMIN))[1] == 404


def test_uptime_unsupported_by_the_driver(
    api, nova_conf, flavor, compute_host, node, monkeypatch
):
    monkeypatch.setattr(
        compute_host.driver,
        "get_host_uptime",
        virt_driver.ComputeDriver.get_host_uptime.__get__(compute_host.driver),
    )
    response = api.get(f"/v2.1/os-hypervisors/{node.id}/uptime", token=ADMIN)
    assert fault(response)[:2] == ("notImplemented", 501)
    shown = api.get(f"/v2.1/os-hypervisors/{node.uuid}", token=ADMIN, version="2.88")
    assert shown.json()["hypervisor"]["uptime"] is None
