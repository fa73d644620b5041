"""InstanceGroup and InstanceGroupList against a database."""

import uuid

import pytest

from nova import exception, objects


def _group(ctxt, name="g1", project_id="p1", **values):
    group = objects.InstanceGroup(
        ctxt, name=name, project_id=project_id, user_id="u1", **values
    )
    group.create()
    return group


def test_create_and_load_with_rules(ctxt):
    group = _group(ctxt, policy="anti-affinity", rules={"max_server_per_host": "2"})
    loaded = objects.InstanceGroup.get_by_uuid(ctxt, group.uuid)
    assert (loaded.name, loaded.policy, loaded.rules) == (
        "g1",
        "anti-affinity",
        {"max_server_per_host": "2"},
    )
    assert loaded.members == []


def test_uuid_is_unique(ctxt):
    group = _group(ctxt, policy="affinity")
    with pytest.raises(exception.InstanceGroupIdExists):
        _group(ctxt, uuid=group.uuid, policy="affinity")


def test_members(ctxt):
    group = _group(ctxt, policy="affinity")
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    assert objects.InstanceGroup.add_members(ctxt, group.uuid, [first]) == [first]
    assert objects.InstanceGroup.add_members(ctxt, group.uuid, [first, second]) == [
        second
    ]
    assert objects.InstanceGroup.get_by_instance_uuid(ctxt, second).uuid == group.uuid
    objects.InstanceGroup.remove_members(ctxt, [first])
    assert objects.InstanceGroup.get_by_uuid(ctxt, group.uuid).members == [second]
    with pytest.raises(exception.InstanceGroupNotFound):
        objects.InstanceGroup.add_members(ctxt, str(uuid.uuid4()), [first])


def test_get_by_name_is_per_project(ctxt):
    _group(ctxt, name="web", project_id="p1", policy="affinity")
    ctxt.project_id = "p1"
    assert objects.InstanceGroup.get_by_name(ctxt, "web").project_id == "p1"
    ctxt.project_id = "p2"
    with pytest.raises(exception.InstanceGroupNotFound):
        objects.InstanceGroup.get_by_name(ctxt, "web")


def test_lists_and_destroy(ctxt):
    a = _group(ctxt, name="a", project_id="p1", policy="affinity")
    _group(ctxt, name="b", project_id="p2", policy="soft-affinity")
    assert [g.name for g in objects.InstanceGroupList.get_all(ctxt)] == ["a", "b"]
    only_p1 = objects.InstanceGroupList.get_by_project_id(ctxt, "p1")
    assert [g.name for g in only_p1] == ["a"]
    a.destroy()
    with pytest.raises(exception.InstanceGroupNotFound):
        objects.InstanceGroup.get_by_uuid(ctxt, a.uuid)


def test_count_members_is_per_group(ctxt):
    group, other = _group(ctxt, policy="affinity"), _group(ctxt, policy="affinity")
    objects.InstanceGroup.add_members(
        ctxt, group.uuid, [str(uuid.uuid4()), str(uuid.uuid4())]
    )
    objects.InstanceGroup.add_members(ctxt, other.uuid, [str(uuid.uuid4())])

    assert objects.InstanceGroup.count_members(ctxt, group.uuid) == 2
    assert objects.InstanceGroup.count_members(ctxt, other.uuid) == 1
    assert objects.InstanceGroup.count_members(ctxt, str(uuid.uuid4())) == 0


def test_group_counts_of_a_project_and_of_a_user(ctxt):
    _group(ctxt, name="a", policy="affinity")
    objects.InstanceGroup(
        ctxt, name="b", project_id="p1", user_id="u2", policy="affinity"
    ).create()
    _group(ctxt, name="c", project_id="p2", policy="affinity")

    counts = objects.InstanceGroupList.get_counts
    assert counts(ctxt, "p1") == {"server_groups": 2}
    assert counts(ctxt, "p1", "u2") == {"server_groups": 1}
    assert counts(ctxt, "p3") == {"server_groups": 0}
