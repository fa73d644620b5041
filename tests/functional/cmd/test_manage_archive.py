"""nova-manage db archive_deleted_rows and db purge on every backend."""

from __future__ import annotations

import datetime
import uuid

import pytest
import sqlalchemy as sa

from nova.db import engines, shadow
from nova.db.api import models as api_models
from nova.db.main import archive
from nova.db.main import models as main_models
from tests.functional.cmd.conftest import add_instance, sqlite_only

DELETED_AT = datetime.datetime(2024, 2, 1)
# An instance's dependants: model, and the columns a row needs besides
# its instance's uuid.
DEPENDANTS = (
    (main_models.InstanceExtra, {}),
    (main_models.InstanceInfoCache, {"network_info": "[]"}),
    (main_models.InstanceFault, {"code": 500, "message": "boom"}),
    (main_models.InstanceMetadata, {"key": "k", "value": "v"}),
    (main_models.InstanceSystemMetadata, {"key": "image_min_ram", "value": "0"}),
    (main_models.BlockDeviceMapping, {"source_type": "image", "boot_index": 0}),
    (main_models.VirtualInterface, {"address": None, "uuid": None}),
    (main_models.Migration, {"status": "confirmed"}),
)


def _table(name: str) -> sa.Table:
    return main_models.BASE.metadata.tables[name]


def add_dependants(url: str, instance_uuid: str) -> None:
    """One row of each table that points at the instance, and an action
    with an event (which points at the action)."""
    with engines.transaction(url) as session:
        for model, values in DEPENDANTS:
            row = model(instance_uuid=instance_uuid, **values)
            if model is main_models.VirtualInterface:
                row.address = f"fa:16:3e:{uuid.uuid4().hex[:6]}"
                row.uuid = str(uuid.uuid4())
            session.add(row)
        action = main_models.InstanceAction(
            instance_uuid=instance_uuid, action="create", request_id="req-1"
        )
        session.add(action)
        session.flush()
        session.add(main_models.InstanceActionEvent(action_id=action.id, event="x"))


def uuids_in(url: str, table_name: str, column: str = "instance_uuid") -> set[str]:
    table = _table(table_name)
    with engines.transaction(url) as session:
        return set(session.scalars(sa.select(table.c[column])))


def rows_in(url: str, table_name: str) -> int:
    with engines.transaction(url) as session:
        return session.scalar(
            sa.select(sa.func.count()).select_from(_table(table_name))
        )


def add_api_records(url: str, instance_uuid: str) -> None:
    with engines.transaction(url) as session:
        session.add(
            api_models.InstanceMapping(instance_uuid=instance_uuid, project_id="p")
        )
        session.add(api_models.RequestSpec(instance_uuid=instance_uuid, spec="{}"))
        group = api_models.InstanceGroup(uuid=str(uuid.uuid4()))
        session.add(group)
        session.flush()
        session.add(
            api_models.InstanceGroupMember(
                group_id=group.id, instance_uuid=instance_uuid
            )
        )


def api_uuids(url: str, model) -> set[str]:
    with engines.transaction(url) as session:
        return set(session.scalars(sa.select(model.instance_uuid)))


def soft_delete(url: str, model, instance_uuid: str) -> None:
    with engines.transaction(url) as session:
        session.execute(
            sa.update(model)
            .where(model.instance_uuid == instance_uuid)
            .values(deleted=model.id, deleted_at=DELETED_AT)
        )


def test_archive_moves_deleted_instances_with_their_rows(nova_manage):
    nova_manage.setup_cells()
    cell = nova_manage.cell1
    live = add_instance(cell, host="c1")
    gone = add_instance(cell, host="c1", deleted=True)
    for instance_uuid in (live, gone):
        add_dependants(cell, instance_uuid)
        add_api_records(nova_manage.api, instance_uuid)
    # A deleted row of a live instance is archived on its own.
    soft_delete(cell, main_models.InstanceMetadata, live)

    result = nova_manage("db", "archive_deleted_rows", "--verbose")

    assert result.code == 1, result.err
    assert uuids_in(cell, "instances", "uuid") == {live}
    assert uuids_in(cell, "shadow_instances", "uuid") == {gone}
    for model, _ in DEPENDANTS:
        name = model.__tablename__
        expected_shadow = {gone, live} if name == "instance_metadata" else {gone}
        assert uuids_in(cell, shadow.shadow_name(name)) == expected_shadow, name
        expected_live = set() if name == "instance_metadata" else {live}
        assert uuids_in(cell, name) == expected_live, name
    assert uuids_in(cell, "shadow_instance_actions") == {gone}
    assert rows_in(cell, "shadow_instance_actions_events") == 1
    assert rows_in(cell, "instance_actions_events") == 1
    # The archived row is the row: same id, same values.
    with engines.transaction(cell) as session:
        archived = session.execute(sa.select(_table("shadow_instances"))).one()
    assert archived.deleted_at == DELETED_AT and archived.deleted == archived.id
    for model in (
        api_models.InstanceMapping,
        api_models.RequestSpec,
        api_models.InstanceGroupMember,
    ):
        assert api_uuids(nova_manage.api, model) == {live}, model.__tablename__
    assert "| instances |" in " ".join(result.out.split())
    assert "API_DB.instance_mappings" in result.out

    again = nova_manage("db", "archive_deleted_rows", "--verbose")
    assert (again.code, again.out.strip()) == (0, "Nothing was archived.")


def test_archive_honours_before_max_rows_and_until_complete(nova_manage):
    nova_manage.setup_cells()
    cell = nova_manage.cell1
    deleted = {add_instance(cell, deleted=True) for _ in range(3)}

    early = nova_manage("db", "archive_deleted_rows", "--before", "2024-01-31")
    assert early.code == 0
    assert uuids_in(cell, "instances", "uuid") == deleted

    one = nova_manage(
        "db", "archive_deleted_rows", "--max_rows", "1",
        # As `date` prints it.
        "--before", "Fri Feb  2 01:00:00 +0100 2024",
    )  # fmt: skip
    assert one.code == 1
    assert len(uuids_in(cell, "shadow_instances", "uuid")) == 1

    rest = nova_manage(
        "db", "archive_deleted_rows", "--max_rows", "1", "--until-complete",
        "--sleep", "0", "--verbose",
    )  # fmt: skip
    assert rest.code == 1, rest.err
    assert uuids_in(cell, "shadow_instances", "uuid") == deleted
    assert uuids_in(cell, "instances", "uuid") == set()
    assert rest.out.startswith("Archiving..")
    assert "complete" in rest.out


def test_archive_all_cells_and_purge(nova_manage):
    nova_manage.setup_cells()
    in_cell0 = add_instance(nova_manage.cell0, deleted=True)
    in_cell1 = add_instance(nova_manage.cell1, deleted=True)

    local_only = nova_manage("db", "archive_deleted_rows")
    assert local_only.code == 1
    assert uuids_in(nova_manage.cell0, "instances", "uuid") == {in_cell0}

    result = nova_manage("db", "archive_deleted_rows", "--all-cells", "--verbose")
    assert result.code == 1, result.err
    assert "cell0.instances" in result.out
    assert uuids_in(nova_manage.cell0, "shadow_instances", "uuid") == {in_cell0}
    assert uuids_in(nova_manage.cell1, "shadow_instances", "uuid") == {in_cell1}

    assert nova_manage("db", "purge").code == 1
    assert nova_manage("db", "purge", "--before", "yesterday-ish").code == 2
    # Archived rows were deleted on 2024-02-01.
    assert nova_manage("db", "purge", "--before", "2024-01-01").code == 3
    purged = nova_manage("db", "purge", "--before", "2024-03-01", "--verbose")
    assert purged.code == 0, purged.err
    assert "shadow_instances" in purged.out
    assert uuids_in(nova_manage.cell1, "shadow_instances", "uuid") == set()
    assert uuids_in(nova_manage.cell0, "shadow_instances", "uuid") == {in_cell0}
    assert nova_manage("db", "purge", "--all", "--all-cells").code == 0
    assert uuids_in(nova_manage.cell0, "shadow_instances", "uuid") == set()
    assert nova_manage("db", "purge", "--all", "--all-cells").code == 3


def test_archive_with_purge_empties_the_shadow_tables(nova_manage):
    nova_manage.setup_cells()
    gone = add_instance(nova_manage.cell1, deleted=True)
    add_dependants(nova_manage.cell1, gone)

    result = nova_manage("db", "archive_deleted_rows", "--purge", "--verbose")

    assert result.code == 1
    assert "Number of Rows Purged" in result.out
    for table in shadow.archivable(main_models.BASE.metadata):
        assert rows_in(nova_manage.cell1, shadow.shadow_name(table.name)) == 0
    assert rows_in(nova_manage.cell1, "instances") == 0


def test_archive_task_log_only_when_asked(nova_manage):
    nova_manage.setup_cells()
    cell = nova_manage.cell1
    with engines.transaction(cell) as session:
        for month in (1, 6):
            session.add(
                main_models.TaskLog(
                    task_name="instance_usage_audit", state="DONE", host="c1",
                    period_beginning=datetime.datetime(2024, month, 1),
                    period_ending=datetime.datetime(2024, month, 2),
                    message="", created_at=datetime.datetime(2024, month, 3),
                )
            )  # fmt: skip

    assert nova_manage("db", "archive_deleted_rows").code == 0
    assert rows_in(cell, "task_log") == 2
    result = nova_manage(
        "db", "archive_deleted_rows", "--task-log", "--before", "2024-03-01"
    )
    assert result.code == 1
    assert rows_in(cell, "task_log") == 1
    assert rows_in(cell, "shadow_task_log") == 1


def test_archive_an_instance_with_more_rows_than_one_statement_takes(nova_manage):
    nova_manage.setup_cells()
    cell = nova_manage.cell1
    gone = add_instance(cell, deleted=True)
    rows = [
        {"instance_uuid": gone, "key": f"k{n}", "value": "v"}
        for n in range(archive.IDS_PER_STATEMENT * 2 + 1)
    ]
    with engines.transaction(cell) as session:
        session.execute(sa.insert(main_models.InstanceSystemMetadata), rows)

    assert nova_manage("db", "archive_deleted_rows", "--max_rows", "1").code == 1

    assert rows_in(cell, "instance_system_metadata") == 0
    assert rows_in(cell, "shadow_instance_system_metadata") == len(rows)
    assert uuids_in(cell, "shadow_instances", "uuid") == {gone}


def test_archive_again_after_an_id_was_reused(nova_manage):
    nova_manage.setup_cells()
    cell = nova_manage.cell1
    first = add_instance(cell, deleted=True)
    assert nova_manage("db", "archive_deleted_rows").code == 1
    # SQLite hands the archived row's id to the next instance; the other
    # backends do not, and the archive must work either way.
    second = add_instance(cell, deleted=True)

    assert nova_manage("db", "archive_deleted_rows").code == 1

    archived = uuids_in(cell, "shadow_instances", "uuid")
    assert second in archived
    if nova_manage.backend != "sqlite":
        assert archived == {first, second}


@sqlite_only
@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--max_rows", "0"], 2),
        (["--sleep", "-1"], 2),
        (["--before", "the day after tomorrow"], 4),
        (["--before", "99999999999999999999"], 4),
        (["--before", "Fri Feb  2 01:00:00 XYZT 2024"], 4),
    ],
)
def test_archive_refuses_invalid_input(nova_manage, args, code):
    nova_manage.setup_cells()
    gone = add_instance(nova_manage.cell1, deleted=True)

    result = nova_manage("db", "archive_deleted_rows", *args)

    assert result.code == code, result.err
    assert result.err.startswith("ERROR: ")
    assert uuids_in(nova_manage.cell1, "instances", "uuid") == {gone}


@sqlite_only
def test_archive_and_purge_without_the_api_database(nova_manage, tmp_path):
    nova_manage.write_conf(
        api_database={"connection": f"sqlite:///{tmp_path}/missing/api.db"}
    )
    assert nova_manage("db", "archive_deleted_rows").code == 3
    assert nova_manage("db", "purge", "--all", "--all-cells").code == 4
    # Purging the local cell needs no API database.
    assert nova_manage("db", "purge", "--all").code == 3
