"""CellMapping, HostMapping and InstanceMapping against a database."""

import pytest
from oslo_utils import uuidutils

from nova import exception, objects
from nova.db import engines
from nova.db.api import models
from nova.objects import instance_mapping

CELL1_UUID = "a5e2a4e6-1111-4b45-9d4b-6b2c3e1f0a01"
INSTANCE_UUID = "b6f3b5f7-2222-4c56-8e5c-7c3d4f2a1b02"


def _cell(ctxt, uuid=CELL1_UUID, name="cell1"):
    cell = objects.CellMapping(
        ctxt,
        uuid=uuid,
        name=name,
        transport_url="rabbit://nova:pw@mq/",
        database_connection="sqlite:////tmp/cell1.sqlite",
    )
    cell.create()
    return cell


def test_cell_mapping_lifecycle(ctxt):
    cell = _cell(ctxt)
    assert cell.id and cell.created_at is not None
    assert cell.disabled is False
    assert cell.identity == f"{CELL1_UUID}(cell1)"
    assert not cell.is_cell0()

    cell.disabled = True
    cell.name = "renamed"
    cell.save()
    loaded = objects.CellMapping.get_by_uuid(ctxt, CELL1_UUID)
    assert (loaded.name, loaded.disabled) == ("renamed", True)
    assert loaded.updated_at is not None

    with pytest.raises(exception.CellMappingExists):
        _cell(ctxt)
    loaded.destroy()
    with pytest.raises(exception.CellMappingNotFound):
        objects.CellMapping.get_by_uuid(ctxt, CELL1_UUID)
    with pytest.raises(exception.CellMappingNotFound):
        loaded.destroy()


def test_cell0_is_known_by_its_uuid(ctxt):
    cell0 = _cell(ctxt, uuid=objects.CellMapping.CELL0_UUID, name=None)
    assert cell0.is_cell0()
    assert cell0.identity == objects.CellMapping.CELL0_UUID


def test_cell_mapping_list(ctxt):
    _cell(ctxt)
    second = _cell(ctxt, uuid="c7a4c6a8-3333-4d67-8f6d-8d4e5a3b2c03", name="cell2")
    second.disabled = True
    second.save()
    assert [c.name for c in objects.CellMappingList.get_all(ctxt)] == ["cell1", "cell2"]
    enabled = objects.CellMappingList.get_by_disabled(ctxt, False)
    assert [c.name for c in enabled] == ["cell1"]


def test_host_mapping_lifecycle(ctxt):
    cell = _cell(ctxt)
    other = _cell(ctxt, uuid="c7a4c6a8-3333-4d67-8f6d-8d4e5a3b2c03", name="cell2")
    mapping = objects.HostMapping(ctxt, host="compute1", cell_mapping=cell)
    mapping.create()

    loaded = objects.HostMapping.get_by_host(ctxt, "compute1")
    assert loaded.cell_mapping.uuid == CELL1_UUID
    with pytest.raises(exception.HostMappingExists):
        objects.HostMapping(ctxt, host="compute1", cell_mapping=cell).create()

    loaded.cell_mapping = other
    loaded.save()
    assert (
        objects.HostMapping.get_by_host(ctxt, "compute1").cell_mapping.name == "cell2"
    )
    assert list(objects.HostMappingList.get_by_cell_id(ctxt, cell.id)) == []
    assert len(objects.HostMappingList.get_all(ctxt)) == 1

    loaded.destroy()
    with pytest.raises(exception.HostMappingNotFound):
        objects.HostMapping.get_by_host(ctxt, "compute1")


def test_instance_mapping_lifecycle(ctxt):
    cell = _cell(ctxt)
    mapping = objects.InstanceMapping(
        ctxt, instance_uuid=INSTANCE_UUID, project_id="p", user_id="u"
    )
    mapping.create()
    loaded = objects.InstanceMapping.get_by_instance_uuid(ctxt, INSTANCE_UUID)
    assert loaded.cell_mapping is None and loaded.queued_for_delete is False

    loaded.cell_mapping = cell
    loaded.save()
    loaded = objects.InstanceMapping.get_by_instance_uuid(ctxt, INSTANCE_UUID)
    assert loaded.cell_mapping.uuid == CELL1_UUID
    assert [m.instance_uuid for m in objects.InstanceMappingList.get_by_cell_id(
        ctxt, cell.id
    )] == [INSTANCE_UUID]  # fmt: skip
    assert len(objects.InstanceMappingList.get_by_project_id(ctxt, "p")) == 1

    with pytest.raises(exception.InstanceMappingExists):
        objects.InstanceMapping(
            ctxt, instance_uuid=INSTANCE_UUID, project_id="p"
        ).create()
    loaded.destroy()
    with pytest.raises(exception.InstanceMappingNotFound):
        objects.InstanceMapping.get_by_instance_uuid(ctxt, INSTANCE_UUID)


def test_migration_marker_round_trip(ctxt):
    assert instance_mapping.pop_migration_marker(ctxt) is None
    instance_mapping.save_migration_marker(ctxt, INSTANCE_UUID)
    # The marker row is not an instance's mapping.
    with pytest.raises(exception.InstanceMappingNotFound):
        objects.InstanceMapping.get_by_instance_uuid(ctxt, INSTANCE_UUID)
    assert instance_mapping.pop_migration_marker(ctxt) == INSTANCE_UUID
    assert instance_mapping.pop_migration_marker(ctxt) is None


def test_instance_mapping_counts_skip_those_queued_for_delete(ctxt):
    cell = _cell(ctxt)
    for user_id, cell_mapping, queued in (
        ("u1", None, False),
        ("u1", cell, False),
        ("u2", cell, False),
        ("u1", cell, True),
    ):
        mapping = objects.InstanceMapping(
            ctxt,
            instance_uuid=uuidutils.generate_uuid(),
            project_id="p1",
            user_id=user_id,
            cell_mapping=cell_mapping,
            queued_for_delete=queued,
        )
        mapping.create()
    objects.InstanceMapping(
        ctxt, instance_uuid=uuidutils.generate_uuid(), project_id="p2"
    ).create()
    # Rows older than the queued_for_delete column hold NULL there.
    with engines.transaction(ctxt.api_db_connection) as session:
        session.add(
            models.InstanceMapping(
                instance_uuid=uuidutils.generate_uuid(),
                project_id="p1",
                user_id="u2",
                queued_for_delete=None,
            )
        )

    counts = objects.InstanceMappingList.get_counts
    assert counts(ctxt, "p1") == {"instances": 4}
    assert counts(ctxt, "p1", "u1") == {"instances": 2}
    assert counts(ctxt, "p3") == {"instances": 0}
