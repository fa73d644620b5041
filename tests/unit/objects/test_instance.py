"""Instances: optional attributes, compare-and-swap saves, soft delete,
listing with the servers API's filters."""

import datetime

import pytest

from nova import context, exception, objects
from nova.network import model as network_model
from nova.states import task_states, vm_states


def _flavor(name="small", memory_mb=512):
    return objects.Flavor(
        id=7,
        flavorid=name,
        name=name,
        memory_mb=memory_mb,
        vcpus=1,
        root_gb=1,
        ephemeral_gb=0,
        swap=0,
        extra_specs={"hw:cpu_policy": "shared"},
    )


def _create(ctxt, **values):
    instance = objects.Instance(
        ctxt,
        project_id=values.pop("project_id", "p1"),
        user_id="u1",
        display_name=values.pop("display_name", "web"),
        vm_state=values.pop("vm_state", vm_states.BUILDING),
        task_state=values.pop("task_state", task_states.SCHEDULING),
        flavor=values.pop("flavor", _flavor()),
        **values,
    )
    instance.create()
    return instance


def test_create_and_load_optional_attributes(ctxt):
    instance = _create(
        ctxt,
        metadata={"role": "web"},
        system_metadata={"image_os": "linux"},
        tags=objects.TagList.from_names(ctxt, None, ["b", "a"]),
        access_ip_v4="192.0.2.1",
    )
    assert instance.id and instance.created_at and not instance.deleted
    assert instance.name == f"instance-{instance.id:08x}"

    loaded = objects.Instance.get_by_uuid(
        ctxt, instance.uuid, expected_attrs=["flavor", "tags", "fault"]
    )
    assert loaded.flavor.extra_specs == {"hw:cpu_policy": "shared"}
    assert loaded.old_flavor is None
    assert [t.tag for t in loaded.tags] == ["a", "b"]
    assert loaded.fault is None
    assert str(loaded.access_ip_v4) == "192.0.2.1"
    # Defaults load metadata, system metadata and the info cache.
    plain = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert plain.metadata == {"role": "web"}
    assert plain.system_metadata == {"image_os": "linux"}
    assert plain.info_cache.network_info == []
    assert "flavor" not in plain.obj_what_changed()


def test_optional_attributes_load_on_first_use(ctxt):
    instance = _create(ctxt)
    plain = objects.Instance.get_by_uuid(ctxt, instance.uuid, expected_attrs=[])
    assert not plain.obj_attr_is_set("flavor")
    assert plain.flavor.name == "small"
    assert plain.new_flavor is None
    objects.InstanceFault(
        ctxt, instance_uuid=instance.uuid, code=500, message="old"
    ).create()
    objects.InstanceFault(
        ctxt, instance_uuid=instance.uuid, code=404, message="newest"
    ).create()
    assert plain.fault.message == "newest"


def test_save_is_compare_and_swap_on_task_state(ctxt):
    instance = _create(ctxt)
    mine = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    theirs = objects.Instance.get_by_uuid(ctxt, instance.uuid)

    mine.task_state = task_states.SPAWNING
    mine.save(expected_task_state=[task_states.SCHEDULING, None])
    theirs.task_state = None
    with pytest.raises(exception.UnexpectedTaskStateError) as error:
        theirs.save(expected_task_state=task_states.SCHEDULING)
    assert "Actual: spawning" in str(error.value)
    assert not isinstance(error.value, exception.UnexpectedDeletingTaskStateError)

    deleting = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    deleting.task_state = task_states.DELETING
    deleting.save()
    mine.vm_state = vm_states.ACTIVE
    mine.task_state = None
    with pytest.raises(exception.UnexpectedDeletingTaskStateError):
        mine.save(expected_task_state=task_states.SPAWNING)


def test_save_checks_the_vm_state_and_none(ctxt):
    instance = _create(ctxt, task_state=None, vm_state=vm_states.ACTIVE)
    instance.task_state = task_states.REBOOTING
    instance.save(expected_task_state=[None], expected_vm_state=vm_states.ACTIVE)
    instance.task_state = None
    with pytest.raises(exception.UnexpectedVMStateError):
        instance.save(expected_vm_state=vm_states.STOPPED)


def test_save_writes_changed_dicts_and_flavor(ctxt):
    instance = _create(ctxt, metadata={"a": "1", "b": "2"})
    instance.metadata["a"] = "changed"
    del instance.metadata["b"]
    instance.metadata["c"] = "3"
    assert "metadata" in instance.obj_what_changed()
    instance.new_flavor = _flavor("large", 2048)
    instance.save()
    assert not instance.obj_what_changed()
    loaded = objects.Instance.get_by_uuid(
        ctxt, instance.uuid, expected_attrs=["metadata", "flavor"]
    )
    assert loaded.metadata == {"a": "changed", "c": "3"}
    assert loaded.new_flavor.memory_mb == 2048


def test_save_of_one_flavor_keeps_the_flavors_not_loaded(ctxt):
    instance = _create(ctxt)
    instance.new_flavor = _flavor("large", 2048)
    instance.save()
    plain = objects.Instance.get_by_uuid(ctxt, instance.uuid, expected_attrs=[])
    plain.old_flavor = _flavor("tiny", 256)
    assert "flavor" not in plain and "new_flavor" not in plain
    plain.save()
    loaded = objects.Instance.get_by_uuid(
        ctxt, instance.uuid, expected_attrs=["flavor"]
    )
    assert loaded.flavor.name == "small"
    assert loaded.old_flavor.memory_mb == 256
    assert loaded.new_flavor.memory_mb == 2048


def test_destroy_soft_deletes_and_checks_the_host(ctxt):
    instance = _create(ctxt, host="h1")
    moved = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    moved.host = "h2"
    moved.save()
    with pytest.raises(exception.ObjectActionError, match="host changed"):
        instance.destroy()
    moved.destroy()
    assert moved.deleted and moved.deleted_at
    with pytest.raises(exception.InstanceNotFound):
        objects.Instance.get_by_uuid(ctxt, instance.uuid)
    gone = objects.Instance.get_by_uuid(
        ctxt.elevated(read_deleted="yes"), instance.uuid
    )
    assert gone.deleted
    with pytest.raises(exception.InstanceNotFound):
        moved.destroy()


def test_create_twice_is_refused(ctxt):
    instance = _create(ctxt)
    with pytest.raises(exception.ObjectActionError):
        instance.create()
    twin = objects.Instance(ctxt, uuid=instance.uuid, flavor=_flavor())
    with pytest.raises(exception.InstanceExists):
        twin.create()


@pytest.fixture
def fleet(ctxt):
    """Five instances created a second apart (oldest first)."""
    base = datetime.datetime(2030, 1, 1)
    specs = [
        ("web-1", "p1", vm_states.ACTIVE, ["prod", "web"]),
        ("web-2", "p1", vm_states.ERROR, ["web"]),
        ("db-1", "p1", vm_states.ACTIVE, ["prod", "db"]),
        ("web-3", "p2", vm_states.ACTIVE, []),
        ("gone", "p1", vm_states.DELETED, []),
    ]
    instances = []
    for i, (name, project, state, tags) in enumerate(specs):
        instance = _create(
            ctxt,
            display_name=name,
            project_id=project,
            vm_state=state,
            task_state=None,
            host="h1" if i % 2 else "h2",
            created_at=base + datetime.timedelta(seconds=i),
            tags=objects.TagList.from_names(ctxt, None, tags),
        )
        instances.append(instance)
    instances[-1].destroy()
    return instances


def _names(instances):
    return [i.display_name for i in instances]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({}, ["web-3", "db-1", "web-2", "web-1"]),
        ({"name": "^web"}, ["web-3", "web-2", "web-1"]),
        ({"display_name": "1$"}, ["db-1", "web-1"]),
        ({"vm_state": [vm_states.ERROR]}, ["web-2"]),
        ({"project_id": "p2"}, ["web-3"]),
        ({"tenant_id": "p2"}, ["web-3"]),
        ({"host": "h1"}, ["web-3", "web-2"]),
        ({"tags": ["prod", "web"]}, ["web-1"]),
        ({"tags": "prod,web"}, ["web-1"]),
        ({"tags-any": ["db", "web"]}, ["db-1", "web-2", "web-1"]),
        ({"not-tags": ["prod", "web"]}, ["web-3", "db-1", "web-2"]),
        ({"not-tags-any": ["prod"]}, ["web-3", "web-2"]),
        ({"deleted": True}, ["gone"]),
        ({"deleted": False, "project_id": "p1"}, ["db-1", "web-2", "web-1"]),
        ({"unknown-filter": "x"}, ["web-3", "db-1", "web-2", "web-1"]),
    ],
)
def test_get_by_filters(ctxt, fleet, filters, expected):
    found = objects.InstanceList.get_by_filters(ctxt, filters)
    assert _names(found) == expected


def test_filter_by_uuid_and_changes_since(ctxt, fleet):
    uuids = [fleet[0].uuid, fleet[2].uuid]
    assert _names(objects.InstanceList.get_by_filters(ctxt, {"uuid": uuids})) == [
        "db-1",
        "web-1",
    ]
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    assert len(objects.InstanceList.get_by_filters(ctxt, {"changes-since": later})) == 0


def test_sorting_and_paging(ctxt, fleet):
    first = objects.InstanceList.get_by_filters(
        ctxt, {}, sort_keys=["display_name"], sort_dirs=["asc"], limit=2
    )
    assert _names(first) == ["db-1", "web-1"]
    second = objects.InstanceList.get_by_filters(
        ctxt,
        {},
        sort_keys=["display_name"],
        sort_dirs=["asc"],
        limit=2,
        marker=first[-1].uuid,
    )
    assert _names(second) == ["web-2", "web-3"]
    with pytest.raises(exception.MarkerNotFound):
        objects.InstanceList.get_by_filters(ctxt, {}, marker="nope")


def test_list_loads_expected_attributes(ctxt, fleet):
    found = objects.InstanceList.get_by_filters(
        ctxt, {"name": "db"}, expected_attrs=["tags", "flavor", "fault"]
    )
    assert [t.tag for t in found[0].tags] == ["db", "prod"]
    assert found[0].flavor.name == "small"
    assert found[0].fault is None


def test_by_host_and_node(ctxt, fleet):
    assert len(objects.InstanceList.get_by_host(ctxt, "h1")) == 2
    assert len(objects.InstanceList.get_by_host_and_node(ctxt, "h1", "n")) == 0


def test_instance_survives_rpc_serialization(ctxt):
    from nova import rpc

    instance = _create(ctxt, metadata={"a": "b"})
    instance.task_state = task_states.SPAWNING
    serializer = rpc.RequestContextSerializer()
    copy = serializer.deserialize_entity(
        context.get_admin_context(), serializer.serialize_entity(ctxt, instance)
    )
    assert copy.flavor.name == "small" and copy.metadata == {"a": "b"}
    assert copy.obj_what_changed() == {"task_state"}


def test_uuid_by_sort_filters_is_the_first_after_the_values(ctxt, fleet):
    by_name = {i.display_name: i.uuid for i in fleet}

    def after(name, uuid, dirs=("asc", "asc")):
        return objects.InstanceList.get_uuid_by_sort_filters(
            ctxt,
            ["display_name", "uuid"],
            list(dirs),
            {"display_name": name, "uuid": uuid},
        )

    assert after("web-15", "z") == by_name["web-2"]
    # Ties on the first key fall to the next one.
    assert after("web-2", "0") == by_name["web-2"]
    assert after("web-2", by_name["web-2"]) == by_name["web-3"]
    assert after("web-15", "z", dirs=("desc", "desc")) == by_name["web-1"]
    # Deleted instances keep their place in the order.
    assert after("f", "z") == by_name["gone"]
    assert after("x", "z") is None


def _vif(address, floating=None):
    ips = [{"address": address, "type": "fixed"}]
    if floating:
        ips[0]["floating_ips"] = [{"address": floating}]
    return {"network": {"subnets": [{"ips": ips}]}}


def test_info_caches_by_network_info_text_of_live_instances(ctxt):
    first = _create(
        ctxt, info_cache=objects.InstanceInfoCache(network_info=[_vif("10.0.0.3")])
    )
    second = _create(
        ctxt,
        info_cache=objects.InstanceInfoCache(
            network_info=[_vif("10.0.0.30", floating="172.24.4.3")]
        ),
    )
    gone = _create(
        ctxt, info_cache=objects.InstanceInfoCache(network_info=[_vif("10.0.0.3")])
    )
    gone.destroy()

    def found(text):
        caches = objects.InstanceInfoCacheList.get_by_network_info_containing(
            ctxt, text
        )
        return {cache.instance_uuid: cache.network_info for cache in caches}

    assert found('"10.0.0.3"') == {
        first.uuid: network_model.NetworkInfo.hydrate([_vif("10.0.0.3")])
    }
    assert set(found("10.0.0.3")) == {first.uuid, second.uuid}
    assert set(found("172.24.4.3")) == {second.uuid}
    assert found("192.0.2.1") == {}
