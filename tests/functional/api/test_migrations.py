"""os-migrations: migrations of every cell, filtered and paged per microversion."""

import datetime

import pytest
import sqlalchemy as sa

from nova import context as nova_context
from nova import objects
from nova.db import engines
from nova.db.main import models as main_models
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

T0 = datetime.datetime(2026, 1, 1, 12, 0, 0)


@pytest.fixture
def migrations(nova_conf, flavor):
    created = {}
    for cell_name, name, minutes, values in (
        ("cell1", "resize", 0, {"migration_type": "resize", "status": "finished"}),
        ("cell1", "live", 10, {"migration_type": "live-migration",
                               "status": "running", "user_id": "u2"}),
        ("cell0", "hidden", 20, {"migration_type": "migration", "status": "done",
                                 "hidden": True}),
        ("cell0", "cold", 30, {"migration_type": "migration", "status": "done",
                               "source_compute": "compute-9"}),
    ):  # fmt: skip
        cell = nova_conf["cells"][cell_name]
        server = _in_cell(nova_conf, cell_name)
        fields = dict(
            source_compute="compute-1", dest_compute="compute-2",
            source_node="node-1", dest_node="node-2", dest_host="192.0.2.2",
            old_instance_type_id=1, new_instance_type_id=1,
            instance_uuid=server.uuid, user_id="u1", project_id="demo",
        )  # fmt: skip
        fields.update(values)
        context = nova_context.get_admin_context()
        with nova_context.target_cell(context, cell) as cctxt:
            migration = objects.Migration(cctxt, **fields)
            migration.create()
        when = T0 + datetime.timedelta(minutes=minutes)
        with engines.transaction(cell.database_connection) as session:
            session.execute(
                sa.update(main_models.Migration)
                .where(main_models.Migration.uuid == migration.uuid)
                .values(created_at=when, updated_at=when)
            )
        created[name] = migration
    return created


def _ids(response, key="uuid"):
    assert response.status_code == 200, response.text
    return [m[key] for m in response.json()["migrations"]]


def test_list_before_2_23(api, migrations):
    listed = api.get("/v2.1/os-migrations", token=ADMIN).json()["migrations"]
    assert len(listed) == 3  # hidden ones are not shown
    resize = next(m for m in listed if m["id"] == migrations["resize"].id)
    assert resize["dest_host"] == "192.0.2.2"
    assert resize["created_at"] == "2026-01-01T12:00:00.000000"
    assert "migration_type" not in resize and "uuid" not in resize


def test_type_and_links_from_2_23(api, migrations):
    listed = api.get("/v2.1/os-migrations", token=ADMIN, version="2.23").json()
    by_type = {m["migration_type"]: m for m in listed["migrations"]}
    live = by_type["live-migration"]
    assert live["links"][0]["href"].endswith(
        f"/servers/{migrations['live'].instance_uuid}/migrations/"
        f"{migrations['live'].id}"
    )
    assert "links" not in by_type["resize"]


def test_filters(api, migrations):
    def listed(query, version="2.80"):
        return _ids(api.get(f"/v2.1/os-migrations?{query}", token=ADMIN,
                            version=version))  # fmt: skip

    assert listed("migration_type=resize") == [migrations["resize"].uuid]
    assert listed("status=running") == [migrations["live"].uuid]
    assert listed("host=compute-9") == [migrations["cold"].uuid]
    assert listed("user_id=u2") == [migrations["live"].uuid]
    assert listed("hidden=1") == [migrations["hidden"].uuid]
    assert listed("changes-since=2026-01-01T12:05:00Z") == [
        migrations["cold"].uuid,
        migrations["live"].uuid,
    ]
    assert listed("changes-before=2026-01-01T12:05:00Z") == [migrations["resize"].uuid]


def test_paging_from_2_59(api, migrations):
    page = api.get("/v2.1/os-migrations?limit=2", token=ADMIN, version="2.59").json()
    newest = [m["uuid"] for m in page["migrations"]]
    assert newest == [migrations["cold"].uuid, migrations["live"].uuid]
    assert f"marker={newest[-1]}" in page["migrations_links"][0]["href"]
    rest = api.get(
        f"/v2.1/os-migrations?marker={newest[-1]}", token=ADMIN, version="2.59"
    )
    assert _ids(rest) == [migrations["resize"].uuid]
    assert "user_id" not in rest.json()["migrations"][0]
    for query, version in (
        ("marker=nope", "2.59"),
        ("bogus=1", "2.59"),
        ("changes-before=2026-01-01T00:00:00Z", "2.65"),
        ("user_id=u1", "2.79"),
        ("limit=x", "2.59"),
    ):
        response = api.get(f"/v2.1/os-migrations?{query}", token=ADMIN, version=version)
        assert fault(response)[1] == 400, query
    assert api.get("/v2.1/os-migrations?bogus=1", token=ADMIN).status_code == 200


def test_only_admins(api, migrations):
    assert fault(api.get("/v2.1/os-migrations"))[:2] == ("forbidden", 403)
