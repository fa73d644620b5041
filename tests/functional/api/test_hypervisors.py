"""os-hypervisors: compute nodes of every cell, across the microversions."""

import datetime
import json

import pytest

from nova import context as nova_context
from nova import objects
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _node(cctxt, service, name, vcpus):
    node = objects.ComputeNode(
        cctxt, host=service.host, hypervisor_hostname=name, vcpus=vcpus,
        memory_mb=2048, local_gb=20, vcpus_used=1, memory_mb_used=512,
        local_gb_used=1, hypervisor_type="QEMU", hypervisor_version=8002000,
        cpu_info=json.dumps({"arch": "x86_64"}), supported_hv_specs=[],
        service_id=service.id, free_ram_mb=1536, free_disk_gb=19,
        current_workload=0, running_vms=1, disk_available_least=18,
        host_ip="192.0.2.10",
    )  # fmt: skip
    node.create()
    return node


@pytest.fixture
def nodes(nova_conf, flavor):
    context = nova_context.get_admin_context()
    created = {}
    stale = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)
    with nova_context.target_cell(context, nova_conf["cells"]["cell1"]) as cctxt:
        for host, values in (
            ("compute-1", {}),
            ("compute-2", {"disabled": True, "disabled_reason": "fan",
                           "last_seen_up": stale}),
        ):  # fmt: skip
            service = objects.Service(
                cctxt, host=host, binary="nova-compute", topic="compute", **values
            )
            service.create()
            created[host] = (_node(cctxt, service, f"{host}.example.org", 4), service)
    server = _in_cell(nova_conf, "cell1", host="compute-1", display_name="vm")
    return created, server


def test_list_and_detail_before_2_53(api, nodes):
    created, _ = nodes
    node1, service1 = created["compute-1"]
    listed = api.get("/v2.1/os-hypervisors", token=ADMIN).json()["hypervisors"]
    assert listed[0] == {
        "id": node1.id,
        "hypervisor_hostname": "compute-1.example.org",
        "state": "up",
        "status": "enabled",
    }
    assert (listed[1]["state"], listed[1]["status"]) == ("down", "disabled")
    detail = api.get("/v2.1/os-hypervisors/detail", token=ADMIN).json()
    first = detail["hypervisors"][0]
    assert first["vcpus"] == 4 and first["running_vms"] == 1
    assert first["service"] == {
        "host": "compute-1",
        "id": service1.id,
        "disabled_reason": None,
    }
    assert first["cpu_info"] == json.dumps({"arch": "x86_64"})
    at_228 = api.get("/v2.1/os-hypervisors/detail", token=ADMIN, version="2.28")
    assert at_228.json()["hypervisors"][0]["cpu_info"] == {"arch": "x86_64"}


def test_uuids_servers_and_pattern_from_2_53(api, nodes):
    created, server = nodes
    node1, service1 = created["compute-1"]
    listed = api.get(
        "/v2.1/os-hypervisors?with_servers=true&hypervisor_hostname_pattern=compute-1",
        token=ADMIN, version="2.53",
    ).json()["hypervisors"]  # fmt: skip
    assert listed == [
        {
            "id": node1.uuid,
            "hypervisor_hostname": "compute-1.example.org",
            "state": "up",
            "status": "enabled",
            "servers": [{"name": server.name, "uuid": server.uuid}],
        }
    ]
    shown = api.get(
        f"/v2.1/os-hypervisors/{node1.uuid}", token=ADMIN, version="2.53"
    ).json()["hypervisor"]
    assert shown["service"]["id"] == service1.uuid
    assert "servers" not in shown
    # 2.75 always lists servers when asked, even none.
    node2, _ = created["compute-2"]
    shown = api.get(
        f"/v2.1/os-hypervisors/{node2.uuid}?with_servers=1", token=ADMIN,
        version="2.75",
    ).json()["hypervisor"]  # fmt: skip
    assert shown["servers"] == []
    for path, status in (
        ("/v2.1/os-hypervisors?hypervisor_hostname_pattern=nope", 404),
        ("/v2.1/os-hypervisors?hypervisor_hostname_pattern=c&limit=1", 400),
        ("/v2.1/os-hypervisors?bogus=1", 400),
        ("/v2.1/os-hypervisors/42", 400),
        ("/v2.1/os-hypervisors/compute/search", 404),
        (f"/v2.1/os-hypervisors/{node1.id}", 400),
    ):
        assert fault(api.get(path, token=ADMIN, version="2.53"))[1] == status, path


def test_paging_from_2_33(api, nodes):
    created, _ = nodes
    node1, _ = created["compute-1"]
    node2, _ = created["compute-2"]
    page = api.get("/v2.1/os-hypervisors?limit=1", token=ADMIN, version="2.33").json()
    assert [h["id"] for h in page["hypervisors"]] == [node1.id]
    assert f"marker={node1.id}" in page["hypervisors_links"][0]["href"]
    rest = api.get(
        f"/v2.1/os-hypervisors?limit=1&marker={node1.id}", token=ADMIN, version="2.33"
    ).json()
    assert [h["id"] for h in rest["hypervisors"]] == [node2.id]
    bad = api.get("/v2.1/os-hypervisors?marker=999", token=ADMIN, version="2.33")
    assert fault(bad) == ("badRequest", 400, "marker [999] not found")


def test_search_servers_statistics_and_uptime(api, nodes):
    created, server = nodes
    node1, _ = created["compute-1"]
    found = api.get("/v2.1/os-hypervisors/compute-2/search", token=ADMIN).json()
    assert [h["hypervisor_hostname"] for h in found["hypervisors"]] == [
        "compute-2.example.org"
    ]
    on = api.get("/v2.1/os-hypervisors/example/servers", token=ADMIN).json()
    assert on["hypervisors"][0]["servers"] == [
        {"name": server.name, "uuid": server.uuid}
    ]
    assert "servers" not in on["hypervisors"][1]
    assert fault(api.get("/v2.1/os-hypervisors/nope/search", token=ADMIN)) == (
        "itemNotFound",
        404,
        "No hypervisor matching 'nope' could be found.",
    )
    stats = api.get("/v2.1/os-hypervisors/statistics", token=ADMIN).json()
    # The disabled compute does not count.
    assert stats["hypervisor_statistics"]["count"] == 1
    assert stats["hypervisor_statistics"]["vcpus"] == 4
    gone = api.get("/v2.1/os-hypervisors/statistics", token=ADMIN, version="2.88")
    assert fault(gone)[1] == 404
    # compute-2's service is down: its uptime cannot be asked.
    node2, _ = created["compute-2"]
    assert fault(api.get(f"/v2.1/os-hypervisors/{node2.id}/uptime", token=ADMIN)) == (
        "badRequest",
        400,
        "Compute service of compute-2 is unavailable at this time.",
    )


def test_2_88_drops_resource_counts(api, nodes):
    created, _ = nodes
    # compute-2 is down: no uptime to show, but the hypervisor is shown.
    node2, _ = created["compute-2"]
    shown = api.get(
        f"/v2.1/os-hypervisors/{node2.uuid}", token=ADMIN, version="2.88"
    ).json()["hypervisor"]
    assert "vcpus" not in shown and "running_vms" not in shown
    assert shown["hypervisor_type"] == "QEMU"
    assert shown["uptime"] is None


def test_only_admins(api, nodes):
    assert fault(api.get("/v2.1/os-hypervisors"))[:2] == ("forbidden", 403)
    assert fault(api.get("/v2.1/os-hypervisors/statistics"))[1] == 403
