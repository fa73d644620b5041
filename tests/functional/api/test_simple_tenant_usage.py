"""os-simple-tenant-usage: hours and resources of servers over a period."""

import datetime

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.main import models as main_models
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

T0 = datetime.datetime(2026, 1, 1, 0, 0, 0, tzinfo=datetime.UTC)
PERIOD = "start=2026-01-01T00:00:00&end=2026-01-01T10:00:00"


@pytest.fixture
def servers(nova_conf, flavor):
    hours = datetime.timedelta(hours=1)
    running = _in_cell(nova_conf, "cell1", launched_at=T0 + 2 * hours,
                       created_at=T0)  # fmt: skip
    # Deleted after 3 hours of running.
    gone = _in_cell(
        nova_conf, "cell1", launched_at=T0 + 4 * hours, created_at=T0 + hours,
        terminated_at=T0 + 7 * hours, vm_state="deleted",
    )  # fmt: skip
    cell = nova_conf["cells"]["cell1"]
    with engines.transaction(cell.database_connection) as session:
        session.execute(
            sa.update(main_models.Instance)
            .where(main_models.Instance.uuid == gone.uuid)
            .values(deleted=main_models.Instance.id)
        )
    before = _in_cell(
        nova_conf, "cell0", project="other", launched_at=T0 - 5 * hours,
        terminated_at=T0 - 4 * hours, vm_state="deleted",
    )  # fmt: skip
    later = _in_cell(nova_conf, "cell0", project="other",
                     launched_at=T0 + 9 * hours, created_at=T0 + 2 * hours)  # fmt: skip
    return running, gone, before, later


def test_show_own_project(api, servers):
    running, gone, _, _ = servers
    usage = api.get(f"/v2.1/os-simple-tenant-usage/demo?{PERIOD}").json()
    usage = usage["tenant_usage"]
    assert usage["tenant_id"] == "demo"
    assert usage["total_hours"] == pytest.approx(8 + 3)
    assert usage["total_memory_mb_usage"] == pytest.approx(512 * 11)
    assert usage["total_vcpus_usage"] == pytest.approx(11)
    assert usage["total_local_gb_usage"] == pytest.approx(11)
    assert usage["start"] == "2026-01-01T00:00:00"
    by_id = {s["instance_id"]: s for s in usage["server_usages"]}
    assert by_id[gone.uuid]["state"] == "terminated"
    assert by_id[gone.uuid]["uptime"] == 3 * 3600
    assert by_id[gone.uuid]["ended_at"] == "2026-01-01T07:00:00"
    assert by_id[running.uuid]["flavor"] == "m1.tiny"
    assert by_id[running.uuid]["state"] == "active"
    # Another project's usage is the admin's to see.
    assert fault(api.get("/v2.1/os-simple-tenant-usage/other"))[1] == 403
    assert api.get(f"/v2.1/os-simple-tenant-usage/nobody?{PERIOD}",
                   token=ADMIN).json() == {"tenant_usage": {}}  # fmt: skip


def test_index_for_admins(api, servers):
    listed = api.get(f"/v2.1/os-simple-tenant-usage?{PERIOD}", token=ADMIN).json()
    by_tenant = {u["tenant_id"]: u for u in listed["tenant_usages"]}
    assert by_tenant["demo"]["total_hours"] == pytest.approx(11)
    assert by_tenant["other"]["total_hours"] == pytest.approx(1)
    assert "server_usages" not in by_tenant["demo"]
    detailed = api.get(
        f"/v2.1/os-simple-tenant-usage?{PERIOD}&detailed=1", token=ADMIN
    ).json()
    assert len(detailed["tenant_usages"][0]["server_usages"]) >= 1
    assert fault(api.get("/v2.1/os-simple-tenant-usage"))[:2] == ("forbidden", 403)


def test_paging_from_2_40(api, servers):
    running, gone, _, later = servers
    page = api.get(
        f"/v2.1/os-simple-tenant-usage?{PERIOD}&detailed=1&limit=2",
        token=ADMIN, version="2.40",
    ).json()  # fmt: skip
    listed = [s["instance_id"] for u in page["tenant_usages"]
              for s in u["server_usages"]]  # fmt: skip
    assert listed == [running.uuid, gone.uuid]
    assert f"marker={gone.uuid}" in page["tenant_usages_links"][0]["href"]
    rest = api.get(
        f"/v2.1/os-simple-tenant-usage?{PERIOD}&detailed=1&marker={gone.uuid}",
        token=ADMIN, version="2.40",
    ).json()  # fmt: skip
    assert [s["instance_id"] for s in rest["tenant_usages"][0]["server_usages"]] == [
        later.uuid
    ]


def test_bad_periods(api, servers):
    for query, version in (
        ("start=2026-01-02T00:00:00&end=2026-01-01T00:00:00", "2.1"),
        ("start=yesterday", "2.1"),
        ("marker=nope", "2.40"),
        ("bogus=1", "2.75"),
    ):
        response = api.get(f"/v2.1/os-simple-tenant-usage/demo?{query}",
                           version=version)  # fmt: skip
        assert fault(response)[1] == 400, query
    assert api.get("/v2.1/os-simple-tenant-usage/demo?bogus=1").status_code == 200
