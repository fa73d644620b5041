"""Aggregate and AggregateList against a database."""

import pytest

from nova import exception, objects


def _aggregate(ctxt, name="agg1", **values):
    aggregate = objects.Aggregate(ctxt, name=name, **values)
    aggregate.create()
    return aggregate


def test_create_with_zone_and_metadata(ctxt):
    aggregate = _aggregate(ctxt, availability_zone="az1", metadata={"ssd": "true"})
    loaded = objects.Aggregate.get_by_uuid(ctxt, aggregate.uuid)
    assert loaded.id == aggregate.id
    assert loaded.metadata == {"ssd": "true", "availability_zone": "az1"}
    assert loaded.availability_zone == "az1"
    assert loaded.hosts == []


def test_names_are_unique(ctxt):
    _aggregate(ctxt)
    with pytest.raises(exception.AggregateNameExists):
        _aggregate(ctxt)
    other = _aggregate(ctxt, name="agg2")
    other.name = "agg1"
    with pytest.raises(exception.AggregateNameExists):
        other.save()
    assert objects.Aggregate.get_by_id(ctxt, other.id).name == "agg2"


def test_save_renames_and_moves_zone(ctxt):
    aggregate = _aggregate(ctxt, availability_zone="az1")
    aggregate.name = "renamed"
    aggregate.availability_zone = "az2"
    aggregate.save()
    loaded = objects.Aggregate.get_by_id(ctxt, aggregate.id)
    assert (loaded.name, loaded.metadata) == ("renamed", {"availability_zone": "az2"})
    loaded.availability_zone = None
    loaded.save()
    assert objects.Aggregate.get_by_id(ctxt, aggregate.id).metadata == {}


def test_hosts(ctxt):
    aggregate = _aggregate(ctxt)
    aggregate.add_host("c1")
    aggregate.add_host("c2")
    with pytest.raises(exception.AggregateHostExists):
        aggregate.add_host("c1")
    assert objects.Aggregate.get_by_id(ctxt, aggregate.id).hosts == ["c1", "c2"]
    aggregate.delete_host("c1")
    with pytest.raises(exception.AggregateHostNotFound):
        aggregate.delete_host("c1")
    assert aggregate.hosts == ["c2"]


def test_update_metadata_sets_and_removes(ctxt):
    aggregate = _aggregate(ctxt, metadata={"a": "1", "b": "2"})
    aggregate.update_metadata({"a": "10", "b": None, "c": "3"})
    assert objects.Aggregate.get_by_id(ctxt, aggregate.id).metadata == {
        "a": "10",
        "c": "3",
    }
    with pytest.raises(exception.AggregateMetadataNotFound):
        aggregate.update_metadata({"b": None})


def test_lists_by_host_and_metadata(ctxt):
    zoned = _aggregate(ctxt, name="zoned", availability_zone="az1")
    plain = _aggregate(ctxt, name="plain", metadata={"filter_tenant_id": "p1"})
    zoned.add_host("c1")
    plain.add_host("c1")
    plain.add_host("c2")
    names = lambda aggs: [a.name for a in aggs]  # noqa: E731
    assert names(objects.AggregateList.get_all(ctxt)) == ["zoned", "plain"]
    assert names(objects.AggregateList.get_by_host(ctxt, "c1")) == ["zoned", "plain"]
    assert names(objects.AggregateList.get_by_host(ctxt, "c2")) == ["plain"]
    by_key = objects.AggregateList.get_by_host(ctxt, "c1", key="availability_zone")
    assert names(by_key) == ["zoned"]
    assert names(objects.AggregateList.get_by_metadata(ctxt, "filter_tenant_id")) == [
        "plain"
    ]
    assert names(objects.AggregateList.get_by_metadata(ctxt, value="az1")) == ["zoned"]


def test_destroy(ctxt):
    aggregate = _aggregate(ctxt, metadata={"a": "1"})
    aggregate.add_host("c1")
    aggregate.destroy()
    with pytest.raises(exception.AggregateNotFound):
        objects.Aggregate.get_by_id(ctxt, aggregate.id)
    assert objects.AggregateList.get_by_host(ctxt, "c1").objects == []
