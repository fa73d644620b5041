"""Objects' queries whose SQL differs between backends (row counts of
updates, transactions, LIKE on text, NULL-free ordering, datetime precision),
against migrated databases on SQLite, MariaDB and PostgreSQL.

The databases are shared by the tests of this module: each test works on its
own projects, hosts and names.
"""

import uuid

import pytest
import sqlalchemy as sa

from nova import context, exception, objects
from nova.conf import CONF
from nova.network import model as network_model
from tests.fixtures.compute_nodes import create_compute_node

objects.register_all()


def new_uuid() -> str:
    return str(uuid.uuid4())


@pytest.fixture
def ctxt(api_db_url, cell_db_url):
    CONF.set_override("connection", api_db_url, group="api_database")
    CONF.set_override("connection", cell_db_url, group="database")
    yield context.get_admin_context()
    CONF.clear_override("connection", group="api_database")
    CONF.clear_override("connection", group="database")


def test_setting_a_limit_to_its_value_keeps_one_row(ctxt):
    # MySQL counts only rows an UPDATE changed unless told to count found
    # rows; a zero would make the upsert insert a duplicate.
    project = new_uuid()
    objects.Quotas.set_limits(ctxt, project, {"instances": 5})
    objects.Quotas.set_limits(ctxt, project, {"instances": 5, "cores": 8})
    objects.Quotas.set_limits(ctxt, project, {"instances": 5}, user_id="u1")
    objects.Quotas.set_limits(ctxt, project, {"instances": 5}, user_id="u1")

    assert objects.Quotas.get_all_by_project(ctxt, project) == {
        "instances": 5,
        "cores": 8,
    }
    assert objects.Quotas.get_all_by_project_and_user(ctxt, project, "u1") == {
        "instances": 5
    }


def _flavor():
    return objects.Flavor(id=1, flavorid="f1", name="f1", vcpus=2, memory_mb=512)


def _build_request(ctxt, project, instance_uuid=None):
    instance = objects.Instance(
        ctxt,
        uuid=instance_uuid or new_uuid(),
        project_id=project,
        user_id="u1",
        display_name="web",
        vcpus=2,
        memory_mb=512,
        flavor=_flavor(),
        metadata={},
        system_metadata={},
    )
    return objects.BuildRequest(
        ctxt,
        instance=instance,
        block_device_mappings=objects.BlockDeviceMappingList(objects=[]),
        tags=objects.TagList.from_names(ctxt, instance.uuid, []),
    )


def _specs(ctxt, requests):
    return [
        objects.RequestSpec.from_components(
            ctxt, r.instance.uuid, {"id": new_uuid()}, _flavor()
        )
        for r in requests
    ]


def test_build_records_all_or_none_then_counted_then_removed(ctxt):
    project = new_uuid()
    taken = new_uuid()
    objects.InstanceMapping(ctxt, instance_uuid=taken, project_id=project).create()
    refused = [_build_request(ctxt, project), _build_request(ctxt, project, taken)]
    with pytest.raises(sa.exc.IntegrityError):
        objects.BuildRequestList.create_build_records(
            ctxt, refused, _specs(ctxt, refused)
        )
    with pytest.raises(exception.BuildRequestNotFound):
        objects.BuildRequest.get_by_instance_uuid(ctxt, refused[0].instance.uuid)

    accepted = [_build_request(ctxt, project), _build_request(ctxt, project)]
    specs = _specs(ctxt, accepted)
    objects.BuildRequestList.create_build_records(ctxt, accepted, specs)

    uuids = [r.instance_uuid for r in accepted]
    found = objects.RequestSpec.get_by_instance_uuids(ctxt, uuids)
    assert {u: s.id for u, s in found.items()} == dict(
        zip(uuids, [s.id for s in specs], strict=True)
    )
    assert objects.BuildRequestList.get_counts(ctxt, project) == {
        "instances": 2,
        "cores": 4,
        "ram": 1024,
    }
    # The mapping made before the refused write counts too.
    assert objects.InstanceMappingList.get_counts(ctxt, project) == {"instances": 3}

    objects.BuildRequestList.destroy_build_records(ctxt, uuids)
    assert objects.RequestSpec.get_by_instance_uuids(ctxt, uuids) == {}
    assert objects.InstanceMappingList.get_counts(ctxt, project) == {"instances": 1}


def test_api_database_counts(ctxt):
    user, project = new_uuid(), new_uuid()
    for name in ("a", "b"):
        objects.KeyPair(ctxt, user_id=user, name=name, public_key="k").create()
    group = objects.InstanceGroup(
        ctxt, name="g", project_id=project, user_id=user, policy="affinity"
    )
    group.create()
    objects.InstanceGroup.add_members(ctxt, group.uuid, [new_uuid(), new_uuid()])

    assert objects.KeyPairList.get_count_by_user(ctxt, user) == 2
    assert objects.InstanceGroupList.get_counts(ctxt, project, user) == {
        "server_groups": 1
    }
    assert objects.InstanceGroup.count_members(ctxt, group.uuid) == 2


def _instance(ctxt, name, network_info=()):
    instance = objects.Instance(
        ctxt,
        project_id="p1",
        user_id="u1",
        display_name=name,
        info_cache=objects.InstanceInfoCache(network_info=list(network_info)),
    )
    instance.create()
    return instance


def test_uuid_by_sort_filters(ctxt):
    prefix = f"zz-{new_uuid()}-"
    first, second = _instance(ctxt, prefix + "a"), _instance(ctxt, prefix + "c")

    def after(name, dirs):
        return objects.InstanceList.get_uuid_by_sort_filters(
            ctxt,
            ["display_name", "uuid"],
            dirs,
            {"display_name": prefix + name, "uuid": new_uuid()},
        )

    assert after("b", ["asc", "asc"]) == second.uuid
    assert after("b", ["desc", "desc"]) == first.uuid
    assert after("d", ["asc", "asc"]) is None


def test_info_caches_by_network_info_text(ctxt):
    address = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"
    vif = {"network": {"subnets": [{"ips": [{"address": address}]}]}}
    live, gone = _instance(ctxt, "a", [vif]), _instance(ctxt, "b", [vif])
    gone.destroy()

    caches = objects.InstanceInfoCacheList.get_by_network_info_containing(
        ctxt, f'"{address}"'
    )

    # The cache comes back as the network model, holding the same VIF.
    assert [(c.instance_uuid, c.network_info) for c in caches] == [
        (live.uuid, network_model.NetworkInfo.hydrate([vif]))
    ]


def test_scheduler_light_reads_match_loaded_objects(ctxt):
    host = new_uuid()
    service = objects.Service(ctxt, host=host, binary="nova-compute", topic="c")
    service.create()
    node = create_compute_node(ctxt, host)
    node.vcpus_used = 1
    node.save()

    versions = objects.ComputeNodeList.get_host_and_updated_at_by_uuids(
        ctxt, [node.uuid]
    )
    status = objects.ServiceList.get_compute_status_by_hosts(ctxt, [host])

    loaded = objects.ComputeNode.get_by_uuid(ctxt, node.uuid)
    assert versions == {node.uuid: (host, loaded.updated_at)}
    assert (
        status[host].last_seen_up
        == objects.Service.get_by_uuid(ctxt, service.uuid).last_seen_up
    )


def test_in_progress_migration_count(ctxt):
    host = new_uuid()
    for status in ("migrating", "confirmed", "error"):
        objects.Migration(
            ctxt, source_compute=host, dest_compute="other", status=status
        ).create()

    assert objects.MigrationList.get_count_in_progress_by_host(ctxt, host) == 1
