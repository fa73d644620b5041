"""nova-manage cell_v2: map_instances and verify_instance."""

from __future__ import annotations

import datetime

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from tests.functional.cmd.conftest import Manage, add_instance, sqlite_only

CELL0_UUID = "00000000-0000-0000-0000-000000000000"
MARKER_PROJECT = "INSTANCE_MIGRATION_MARKER"


def _mapped(nova_manage: Manage) -> set[str]:
    return {
        m.instance_uuid
        for m in nova_manage.api_rows(api_models.InstanceMapping)
        if m.project_id != MARKER_PROJECT
    }


def _add_instances(nova_manage: Manage, count: int) -> list[str]:
    # Equal creation times for some: pages are ordered by id among them.
    start = datetime.datetime(2024, 1, 1)
    return [
        add_instance(nova_manage.cell1, created_at=start + datetime.timedelta(i // 2))
        for i in range(count)
    ]


def test_map_instances_in_batches_resumes_where_it_stopped(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    instances = _add_instances(nova_manage, 5)
    late = datetime.datetime(2025, 1, 1)
    instances.append(add_instance(nova_manage.cell1, deleted=True, created_at=late))

    def map_two():
        args = ("cell_v2", "map_instances", "--cell_uuid", cell1, "--max-count", "2")
        return nova_manage(*args).code

    assert map_two() == 1
    assert _mapped(nova_manage) == set(instances[:2])
    assert map_two() == 1
    assert _mapped(nova_manage) == set(instances[:4])
    assert map_two() == 1
    assert map_two() == 0
    assert _mapped(nova_manage) == set(instances)
    assert all(
        m.project_id != MARKER_PROJECT
        for m in nova_manage.api_rows(api_models.InstanceMapping)
    )
    mapping = nova_manage.api_rows(api_models.InstanceMapping)[0]
    assert (mapping.project_id, mapping.user_id) == ("project", "user")


def test_map_instances_reset_starts_over(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    instances = _add_instances(nova_manage, 3)
    args = ("cell_v2", "map_instances", "--cell_uuid", cell1, "--max-count", "2")
    assert nova_manage(*args).code == 1
    # Someone removed a mapping meanwhile; only a reset revisits it.
    with engines.transaction(nova_manage.api) as session:
        session.execute(
            sa.delete(api_models.InstanceMapping).where(
                api_models.InstanceMapping.instance_uuid == instances[0]
            )
        )
    assert nova_manage(*args).code == 0
    assert instances[0] not in _mapped(nova_manage)
    assert nova_manage(*args, "--reset").code == 1
    assert _mapped(nova_manage) == set(instances)


def test_map_instances_all_at_once(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    instances = _add_instances(nova_manage, 3)
    assert nova_manage("cell_v2", "map_instances", "--cell_uuid", cell1).code == 0
    assert _mapped(nova_manage) == set(instances)
    # Again: nothing to do, and nothing duplicated.
    assert nova_manage("cell_v2", "map_instances", "--cell_uuid", cell1).code == 0
    assert len(nova_manage.api_rows(api_models.InstanceMapping)) == 3


@sqlite_only
@pytest.mark.parametrize("count", ["0", "-3", "many"])
def test_map_instances_rejects_a_bad_max_count(nova_manage: Manage, count):
    cell1 = nova_manage.setup_cells()
    result = nova_manage(
        "cell_v2", "map_instances", "--cell_uuid", cell1, "--max-count", count
    )
    assert result.code == 127
    assert len(result.err.splitlines()) == 1


def test_map_instances_to_an_unknown_cell(nova_manage: Manage):
    nova_manage.setup_cells()
    add_instance(nova_manage.cell1)
    result = nova_manage(
        "cell_v2",
        "map_instances",
        "--cell_uuid",
        "4c3c4d94-0000-4000-8000-000000000000",
    )
    assert result.code == 255
    assert result.err.startswith("ERROR: ") and len(result.err.splitlines()) == 1
    assert nova_manage.api_rows(api_models.InstanceMapping) == []


def _verify(nova_manage: Manage, uuid: str, *extra: str):
    return nova_manage("cell_v2", "verify_instance", "--uuid", uuid, *extra)


def test_verify_instance(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    live = add_instance(nova_manage.cell1)
    deleted = add_instance(nova_manage.cell1, deleted=True)
    archived = add_instance(nova_manage.cell1)
    nova_manage("cell_v2", "map_instances", "--cell_uuid", cell1)
    with engines.transaction(nova_manage.cell1) as session:
        session.execute(
            sa.delete(main_models.Instance).where(main_models.Instance.uuid == archived)
        )
    unmapped = add_instance(nova_manage.cell1)

    result = _verify(nova_manage, live)
    assert result.code == 0
    assert f"Instance {live} is in cell: cell1 ({cell1})" in result.out
    assert _verify(nova_manage, unmapped).code == 1
    assert _verify(nova_manage, deleted).code == 3
    assert _verify(nova_manage, archived).code == 4

    quiet = _verify(nova_manage, unmapped, "--quiet")
    assert (quiet.code, quiet.out, quiet.err) == (1, "", "")


def test_verify_instance_in_cell0_and_while_scheduling(nova_manage: Manage):
    nova_manage.setup_cells()
    failed_build = add_instance(nova_manage.cell0)
    scheduling = "6f3b7a52-0000-4000-8000-000000000000"
    with engines.transaction(nova_manage.api) as session:
        cell0_id = session.scalar(
            sa.select(api_models.CellMapping.id).where(
                api_models.CellMapping.uuid == CELL0_UUID
            )
        )
        session.add_all(
            [
                api_models.InstanceMapping(
                    instance_uuid=failed_build, cell_id=cell0_id, project_id="p"
                ),
                api_models.InstanceMapping(instance_uuid=scheduling, project_id="p"),
            ]
        )
    result = _verify(nova_manage, failed_build)
    assert result.code == 0 and f"cell0 ({CELL0_UUID})" in result.out
    assert _verify(nova_manage, scheduling).code == 2
