"""Models against migrated databases: constraints, relationships, defaults."""

import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy import orm

from nova.db import engines, types
from nova.db.api import models as api_models
from nova.db.main import models as main_models


def new_uuid() -> str:
    return str(uuid.uuid4())


def add_service(url: str, host: str) -> main_models.Service:
    with engines.transaction(url) as session:
        service = main_models.Service(
            uuid=new_uuid(), host=host, binary="nova-compute", topic="compute"
        )
        session.add(service)
    return service


def test_soft_deleted_service_frees_host_and_binary(cell_db_url):
    host = new_uuid()
    first = add_service(cell_db_url, host)
    with engines.transaction(cell_db_url) as session:
        session.execute(
            sa.update(main_models.Service)
            .where(main_models.Service.id == first.id)
            .values(deleted=main_models.Service.id, deleted_at=types.utcnow())
        )

    second = add_service(cell_db_url, host)

    with engines.transaction(cell_db_url) as session:
        live = session.scalars(
            sa.select(main_models.Service).where(
                main_models.Service.host == host, main_models.Service.deleted == 0
            )
        ).all()
    assert [s.id for s in live] == [second.id]


def test_second_live_service_on_host_is_rejected(cell_db_url):
    host = new_uuid()
    add_service(cell_db_url, host)
    with pytest.raises(sa.exc.IntegrityError):
        add_service(cell_db_url, host)


def test_timestamps_are_set_on_insert_and_update(cell_db_url):
    service_id = add_service(cell_db_url, new_uuid()).id
    with engines.transaction(cell_db_url) as session:
        inserted = session.get(main_models.Service, service_id)
        created_at, updated_at = inserted.created_at, inserted.updated_at
        inserted.report_count = 1
    assert created_at is not None
    assert updated_at is None

    with engines.transaction(cell_db_url) as session:
        updated = session.get(main_models.Service, service_id)
    assert updated.updated_at is not None
    assert updated.created_at == created_at
    assert updated.deleted == 0


def test_host_and_instance_mappings_load_their_cell(api_db_url):
    host, instance_uuid = new_uuid(), new_uuid()
    with engines.transaction(api_db_url) as session:
        cell = api_models.CellMapping(
            uuid=new_uuid(),
            name="cell1",
            transport_url="rabbit://nova:secret@mq/cell1",
            database_connection="mysql+pymysql://nova:secret@db/nova_cell1",
        )
        session.add_all(
            [
                api_models.HostMapping(host=host, cell_mapping=cell),
                # Not scheduled yet: no cell.
                api_models.InstanceMapping(
                    instance_uuid=instance_uuid, project_id="p1", user_id="u1"
                ),
            ]
        )

    with engines.transaction(api_db_url) as session:
        host_mapping = session.scalars(
            sa.select(api_models.HostMapping)
            .where(api_models.HostMapping.host == host)
            .options(orm.joinedload(api_models.HostMapping.cell_mapping))
        ).one()
        instance_mapping = session.scalars(
            sa.select(api_models.InstanceMapping).where(
                api_models.InstanceMapping.instance_uuid == instance_uuid
            )
        ).one()
        assert instance_mapping.cell_mapping is None
        instance_mapping.cell_mapping = host_mapping.cell_mapping

    assert host_mapping.cell_mapping.uuid == cell.uuid
    assert host_mapping.cell_mapping.disabled is False
    with engines.transaction(api_db_url) as session:
        assert session.get(api_models.InstanceMapping, instance_mapping.id).cell_id == (
            cell.id
        )


def test_flavor_extra_specs_and_projects_round_trip(api_db_url):
    with engines.transaction(api_db_url) as session:
        flavor = api_models.Flavors(
            name=new_uuid(), flavorid=new_uuid(), memory_mb=2048, vcpus=1, root_gb=20
        )
        # Keys differing only in case are distinct (binary collation on MySQL).
        flavor.extra_specs = [
            api_models.FlavorExtraSpecs(key="hw:cpu_policy", value="dedicated"),
            api_models.FlavorExtraSpecs(key="HW:CPU_POLICY", value="shared"),
        ]
        flavor.projects = [api_models.FlavorProjects(project_id="p1")]
        session.add(flavor)

    with engines.transaction(api_db_url) as session:
        loaded = session.scalars(
            sa.select(api_models.Flavors)
            .where(api_models.Flavors.id == flavor.id)
            .options(
                orm.selectinload(api_models.Flavors.extra_specs),
                orm.selectinload(api_models.Flavors.projects),
            )
        ).one()
        assert {s.key: s.value for s in loaded.extra_specs} == {
            "hw:cpu_policy": "dedicated",
            "HW:CPU_POLICY": "shared",
        }
        assert [p.project_id for p in loaded.projects] == ["p1"]
        assert (loaded.swap, loaded.rxtx_factor, loaded.is_public) == (0, 1.0, True)
        session.delete(loaded)

    with engines.transaction(api_db_url) as session:
        for model in (api_models.FlavorExtraSpecs, api_models.FlavorProjects):
            rows = session.scalars(sa.select(model).where(model.flavor_id == flavor.id))
            assert rows.all() == []


def test_instance_details_round_trip_and_hide_deleted_metadata(cell_db_url):
    instance_uuid = new_uuid()
    with engines.transaction(cell_db_url) as session:
        instance = main_models.Instance(
            uuid=instance_uuid,
            project_id="p1",
            vm_state="building",
            access_ip_v4="192.0.2.10",
            user_data="x" * 70000,  # beyond MySQL's TEXT: needs MEDIUMTEXT
        )
        instance.extra = main_models.InstanceExtra(flavor='{"name": "m1.small"}')
        instance.info_cache = main_models.InstanceInfoCache(network_info="[]")
        instance.metadata_items = [
            main_models.InstanceMetadata(key="role", value="web"),
            main_models.InstanceMetadata(key="tier", value="1"),
        ]
        instance.system_metadata = [
            main_models.InstanceSystemMetadata(key="image_os_type", value="linux")
        ]
        instance.tags = [main_models.Tag(tag="blue")]
        session.add(instance)
    with engines.transaction(cell_db_url) as session:
        session.execute(
            sa.update(main_models.InstanceMetadata)
            .where(main_models.InstanceMetadata.key == "tier")
            .values(deleted=main_models.InstanceMetadata.id)
        )

    with engines.transaction(cell_db_url) as session:
        loaded = session.scalars(
            sa.select(main_models.Instance)
            .where(main_models.Instance.uuid == instance_uuid)
            .options(
                orm.joinedload(main_models.Instance.extra).undefer(
                    main_models.InstanceExtra.flavor
                ),
                orm.joinedload(main_models.Instance.info_cache),
                orm.selectinload(main_models.Instance.metadata_items),
                orm.selectinload(main_models.Instance.system_metadata),
                orm.selectinload(main_models.Instance.tags),
            )
        ).one()

    assert loaded.extra.flavor == '{"name": "m1.small"}'
    assert loaded.info_cache.network_info == "[]"
    assert [(m.key, m.value) for m in loaded.metadata_items] == [("role", "web")]
    assert [m.key for m in loaded.system_metadata] == ["image_os_type"]
    assert [t.tag for t in loaded.tags] == ["blue"]
    assert loaded.access_ip_v4 == "192.0.2.10"
    assert len(loaded.user_data) == 70000
    assert (loaded.deleted, loaded.cleaned, loaded.hidden) == (0, 0, False)
