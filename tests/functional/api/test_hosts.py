"""os-hosts (2.1-2.42): hosts of the services, a host's resource usage,
and the updates and power actions handed to its nova-compute.

nova-compute is played here by a double that answers as the fake driver
does, or fails as a driver without the operation does; the real RPC round
trip is tests/functional/rpc/test_host_actions.py.
"""

import datetime
import json

import pytest

from nova import context as nova_context
from nova import objects
from nova.compute import host_api
from nova.virt import driver as virt_driver
from nova.virt import fake
from tests.functional.api.conftest import ADMIN, DEMO, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


@pytest.fixture
def hosts(nova_conf, flavor):
    """compute-1 (up, with a node and three instances of two projects),
    compute-2 (disabled), compute-3 (down), and a conductor, in cell1."""
    context = nova_context.get_admin_context()
    cell = nova_conf["cells"]["cell1"]
    stale = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)
    with nova_context.target_cell(context, cell) as cctxt:
        for host, binary, values in (
            ("compute-1", "nova-compute", {}),
            ("compute-2", "nova-compute", {"disabled": True}),
            ("compute-3", "nova-compute", {"last_seen_up": stale}),
            ("cond-1", "nova-conductor", {}),
        ):
            service = objects.Service(
                cctxt, host=host, binary=binary, topic=binary[5:], **values
            )
            service.create()
            if binary == "nova-compute":
                objects.HostMapping(context, host=host, cell_mapping=cell).create()
            if host == "compute-1":
                objects.ComputeNode(
                    cctxt, host=host, hypervisor_hostname=host, vcpus=8,
                    memory_mb=8192, local_gb=100, vcpus_used=3,
                    memory_mb_used=1536, local_gb_used=25, hypervisor_type="fake",
                    hypervisor_version=1, cpu_info=json.dumps({}),
                    supported_hv_specs=[], service_id=service.id,
                    free_ram_mb=6656, free_disk_gb=75, current_workload=0,
                    running_vms=3, disk_available_least=75, host_ip="192.0.2.1",
                ).create()  # fmt: skip
    sizes = dict(vcpus=1, memory_mb=512, root_gb=10, ephemeral_gb=0)
    _in_cell(nova_conf, "cell1", project="p1", **sizes)
    _in_cell(nova_conf, "cell1", project="p1", **{**sizes, "ephemeral_gb": 5})
    _in_cell(nova_conf, "cell1", project="p2", **{**sizes, "vcpus": 1})
    return cell


def test_list_shows_enabled_services_and_filters_by_zone(api, hosts):
    listed = api.get("/v2.1/os-hosts", token=ADMIN)
    assert listed.status_code == 200, listed.text
    assert sorted(listed.json()["hosts"], key=lambda h: h["host_name"]) == [
        {"host_name": "compute-1", "service": "compute", "zone": "nova"},
        {"host_name": "compute-3", "service": "compute", "zone": "nova"},
        {"host_name": "cond-1", "service": "conductor", "zone": "internal"},
    ]
    internal = api.get("/v2.1/os-hosts?zone=internal", token=ADMIN).json()
    assert internal == {
        "hosts": [{"host_name": "cond-1", "service": "conductor", "zone": "internal"}]
    }
    assert api.get("/v2.1/os-hosts?zone=nowhere", token=ADMIN).json() == {"hosts": []}


def test_show_gives_total_used_and_per_project_rows(api, hosts):
    shown = api.get("/v2.1/os-hosts/compute-1", token=ADMIN)
    assert shown.status_code == 200, shown.text
    rows = {r["resource"]["project"]: r["resource"] for r in shown.json()["host"]}
    assert list(rows)[:3] == ["(total)", "(used_now)", "(used_max)"]
    assert rows["(total)"] == {
        "host": "compute-1", "project": "(total)", "cpu": 8, "memory_mb": 8192,
        "disk_gb": 100,
    }  # fmt: skip
    assert (rows["(used_now)"]["cpu"], rows["(used_now)"]["disk_gb"]) == (3, 25)
    assert (rows["(used_max)"]["cpu"], rows["(used_max)"]["memory_mb"]) == (3, 1536)
    assert rows["(used_max)"]["disk_gb"] == 35
    assert (rows["p1"]["cpu"], rows["p1"]["disk_gb"]) == (2, 25)
    assert (rows["p2"]["cpu"], rows["p2"]["memory_mb"]) == (1, 512)


def test_show_of_unknown_or_nodeless_host_is_404(api, hosts):
    unknown = api.get("/v2.1/os-hosts/nowhere", token=ADMIN)
    assert fault(unknown)[:2] == ("itemNotFound", 404)
    nodeless = api.get("/v2.1/os-hosts/compute-2", token=ADMIN)
    assert fault(nodeless)[:2] == ("itemNotFound", 404)


class _Compute:
    """nova-compute answering through ``driver``; records the calls."""

    def __init__(self, driver):
        self.driver = driver
        self.calls = []

    def set_host_enabled(self, context, host, enabled):
        self.calls.append(("set_host_enabled", host, enabled))
        return self.driver.set_host_enabled(enabled)

    def host_maintenance_mode(self, context, host, mode):
        self.calls.append(("host_maintenance_mode", host, mode))
        return self.driver.host_maintenance_mode(host, mode)

    def host_power_action(self, context, host, action):
        self.calls.append(("host_power_action", host, action))
        return self.driver.host_power_action(action)


@pytest.fixture
def compute(monkeypatch):
    def use(driver):
        double = _Compute(driver)
        monkeypatch.setattr(host_api.compute_rpcapi, "ComputeAPI", lambda: double)
        return double

    return use


def test_update_status_and_maintenance_mode(api, hosts, compute):
    calls = compute(fake.FakeDriver()).calls
    body = {"status": "disable", "maintenance_mode": "Enable"}
    updated = api.put("/v2.1/os-hosts/compute-1", body, token=ADMIN)
    assert updated.status_code == 200, updated.text
    assert updated.json() == {
        "host": "compute-1",
        "status": "disabled",
        "maintenance_mode": "on_maintenance",
    }
    assert calls == [
        ("set_host_enabled", "compute-1", False),
        ("host_maintenance_mode", "compute-1", True),
    ]
    enabled = api.put("/v2.1/os-hosts/compute-1", {"status": "ENABLE"}, token=ADMIN)
    assert enabled.json() == {"host": "compute-1", "status": "enabled"}


@pytest.mark.parametrize(
    "body",
    [{}, {"status": "on"}, {"maintenance_mode": 1}, {"status": "enable", "x": 1}],
)
def test_update_bad_body_is_400(api, hosts, compute, body):
    calls = compute(fake.FakeDriver()).calls
    response = api.put("/v2.1/os-hosts/compute-1", body, token=ADMIN)
    assert fault(response)[:2] == ("badRequest", 400)
    assert calls == []


def test_update_of_unknown_down_or_unsupported_host(api, hosts, compute):
    compute(fake.FakeDriver())
    body = {"status": "enable"}
    missing = api.put("/v2.1/os-hosts/nowhere", body, token=ADMIN)
    assert fault(missing)[:2] == ("itemNotFound", 404)
    down = api.put("/v2.1/os-hosts/compute-3", body, token=ADMIN)
    assert fault(down) == (
        "badRequest",
        400,
        "Compute service of compute-3 is unavailable at this time.",
    )
    compute(virt_driver.ComputeDriver())  # what the libvirt driver answers
    unsupported = api.put("/v2.1/os-hosts/compute-1", body, token=ADMIN)
    assert fault(unsupported) == (
        "notImplemented",
        501,
        "Virt driver does not implement host disabled status.",
    )
    maintenance = api.put(
        "/v2.1/os-hosts/compute-1", {"maintenance_mode": "disable"}, token=ADMIN
    )
    assert fault(maintenance)[:2] == ("notImplemented", 501)


@pytest.mark.parametrize("action", ["startup", "shutdown", "reboot"])
def test_power_actions(api, hosts, compute, action):
    calls = compute(fake.FakeDriver()).calls
    done = api.get(f"/v2.1/os-hosts/compute-1/{action}", token=ADMIN)
    assert done.status_code == 200, done.text
    assert done.json() == {"host": "compute-1", "power_action": action}
    assert calls == [("host_power_action", "compute-1", action)]
    compute(virt_driver.ComputeDriver())
    unsupported = api.get(f"/v2.1/os-hosts/compute-1/{action}", token=ADMIN)
    assert fault(unsupported) == (
        "notImplemented",
        501,
        "Virt driver does not implement host power management.",
    )
    missing = api.get(f"/v2.1/os-hosts/nowhere/{action}", token=ADMIN)
    assert fault(missing)[:2] == ("itemNotFound", 404)


def test_admin_only_and_gone_from_2_43(api, hosts, compute):
    calls = compute(fake.FakeDriver()).calls
    for method, path, body in (
        ("get", "/v2.1/os-hosts", None),
        ("get", "/v2.1/os-hosts/compute-1", None),
        ("put", "/v2.1/os-hosts/compute-1", {"status": "disable"}),
        ("get", "/v2.1/os-hosts/compute-1/reboot", None),
    ):
        args = (path,) if body is None else (path, body)
        denied = getattr(api, method)(*args, token=DEMO)
        assert fault(denied)[:2] == ("forbidden", 403)
        at_242 = getattr(api, method)(*args, token=ADMIN, version="2.42")
        assert at_242.status_code == 200, at_242.text
        gone = getattr(api, method)(*args, token=ADMIN, version="2.43")
        assert fault(gone)[:2] == ("itemNotFound", 404)
    assert [c[0] for c in calls] == ["set_host_enabled", "host_power_action"]
