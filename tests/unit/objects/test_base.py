"""Registry, serialization and the soft-delete read filter."""

import datetime

from nova import context, objects
from nova.objects import base


def test_registering_publishes_the_newest_version():
    assert objects.CellMapping.VERSION == "1.1"
    assert objects.InstanceMapping.VERSION == "1.2"
    assert set(base.NovaObjectRegistry.obj_classes()) >= {
        "CellMapping",
        "CellMappingList",
        "HostMapping",
        "HostMappingList",
        "InstanceMapping",
        "InstanceMappingList",
        "ComputeNode",
        "ComputeNodeList",
        "Service",
        "ServiceList",
        "Instance",
        "InstanceList",
    }


def test_serializer_round_trips_nested_objects():
    ctxt = context.get_admin_context()
    cell = objects.CellMapping(
        uuid="6d4c2f2e-3c0b-4c6b-9b7e-1f0a2b3c4d5e",
        name="cell1",
        transport_url="rabbit://mq/",
        database_connection="sqlite://",
        disabled=False,
    )
    mapping = objects.HostMapping(host="compute1", cell_mapping=cell)
    serializer = base.NovaObjectSerializer()

    primitive = serializer.serialize_entity(ctxt, mapping)
    assert primitive["nova_object.name"] == "HostMapping"
    assert primitive["nova_object.namespace"] == "nova"
    restored = serializer.deserialize_entity(ctxt, primitive)
    assert restored.host == "compute1"
    assert restored.cell_mapping.name == "cell1"


def test_cell_mapping_backports_drop_disabled():
    cell = objects.CellMapping(uuid=objects.CellMapping.CELL0_UUID, disabled=True)
    primitive = cell.obj_to_primitive(target_version="1.0")
    assert "disabled" not in primitive["nova_object.data"]


def test_instance_mapping_backports():
    mapping = objects.InstanceMapping(
        instance_uuid="6d4c2f2e-3c0b-4c6b-9b7e-1f0a2b3c4d5e",
        project_id="p",
        user_id="u",
        queued_for_delete=True,
    )
    data = mapping.obj_to_primitive(target_version="1.0")["nova_object.data"]
    assert "user_id" not in data and "queued_for_delete" not in data
    data = mapping.obj_to_primitive(target_version="1.1")["nova_object.data"]
    assert "user_id" not in data and data["queued_for_delete"] is True


def test_soft_deleted_rows_are_filtered_by_read_deleted(ctxt):
    from nova.db import engines
    from nova.db.main import models

    with engines.transaction(ctxt.db_connection) as session:
        for number, deleted in enumerate((False, True)):
            row = models.Instance(
                uuid=f"00000000-0000-4000-8000-00000000000{number}",
                created_at=datetime.datetime(2024, 1, 1),
            )
            session.add(row)
            session.flush()
            if deleted:
                row.deleted = row.id

    def uuids(read_deleted):
        reader = ctxt.elevated(read_deleted=read_deleted)
        return [i.uuid[-1] for i in objects.InstanceList.get_all(reader)]

    assert uuids("no") == ["0"]
    assert uuids("only") == ["1"]
    assert uuids("yes") == ["0", "1"]
    deleted = objects.Instance.get_by_uuid(
        ctxt.elevated(read_deleted="yes"), "00000000-0000-4000-8000-000000000001"
    )
    assert deleted.deleted is True
