"""os-services and os-availability-zone, gathered from every cell."""

import datetime

import pytest

from nova import context as nova_context
from nova import objects
from tests.functional.api.conftest import ADMIN, fault

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _service(cloud, cell_name, host, binary, **values):
    context = nova_context.get_admin_context()
    fields = {"report_count": 1, "disabled": False, **values}
    with nova_context.target_cell(context, cloud["cells"][cell_name]) as cctxt:
        service = objects.Service(
            cctxt, host=host, binary=binary, topic=binary[len("nova-") :], **fields
        )
        service.create()
        return service


@pytest.fixture
def services(nova_conf):
    stale = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)
    return {
        "conductor": _service(nova_conf, "cell0", "api-host", "nova-conductor"),
        "up": _service(nova_conf, "cell1", "compute-1", "nova-compute"),
        "down": _service(
            nova_conf, "cell1", "compute-2", "nova-compute", last_seen_up=stale
        ),
        "disabled": _service(
            nova_conf, "cell1", "compute-3", "nova-compute",
            disabled=True, disabled_reason="maintenance",
        ),
    }  # fmt: skip


def test_admins_list_services_of_every_cell(api, services):
    listed = api.get("/v2.1/os-services", token=ADMIN).json()["services"]
    by_host = {s["host"]: s for s in listed}
    assert set(by_host) == {"api-host", "compute-1", "compute-2", "compute-3"}
    assert by_host["compute-1"]["state"] == "up"
    assert by_host["compute-2"]["state"] == "down"
    assert by_host["compute-3"]["status"] == "disabled"
    assert by_host["compute-3"]["disabled_reason"] == "maintenance"
    assert by_host["compute-1"]["zone"] == "nova"
    assert by_host["api-host"]["zone"] == "internal"
    assert isinstance(by_host["compute-1"]["id"], int)
    assert "forced_down" not in by_host["compute-1"]
    assert by_host["compute-1"]["updated_at"].count(":") == 2


def test_filters_and_microversions(api, services):
    listed = api.get(
        "/v2.1/os-services?binary=nova-compute&host=compute-1",
        token=ADMIN,
        version="2.53",
    ).json()["services"]
    assert [s["id"] for s in listed] == [services["up"].uuid]
    assert listed[0]["forced_down"] is False
    assert (
        api.get("/v2.1/os-services?x=1", token=ADMIN, version="2.75").status_code == 400
    )


def test_members_may_not_list_services(api, services):
    assert fault(api.get("/v2.1/os-services"))[:2] == ("forbidden", 403)


def test_availability_zones(api, services):
    zones = api.get("/v2.1/os-availability-zone").json()["availabilityZoneInfo"]
    assert zones == [
        {"zoneName": "nova", "zoneState": {"available": True}, "hosts": None}
    ]


def test_availability_zone_detail_for_admins(api, services):
    zones = api.get("/v2.1/os-availability-zone/detail", token=ADMIN).json()[
        "availabilityZoneInfo"
    ]
    by_name = {zone["zoneName"]: zone for zone in zones}
    assert set(by_name) == {"internal", "nova"}
    assert by_name["internal"]["hosts"]["api-host"]["nova-conductor"]["active"]
    nova_hosts = by_name["nova"]["hosts"]
    # Disabled services are left out; a stale one is not available.
    assert set(nova_hosts) == {"compute-1", "compute-2"}
    assert nova_hosts["compute-1"]["nova-compute"]["available"] is True
    assert nova_hosts["compute-2"]["nova-compute"]["available"] is False
    assert fault(api.get("/v2.1/os-availability-zone/detail"))[1] == 403
