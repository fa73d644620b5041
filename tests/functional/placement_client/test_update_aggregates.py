"""Joining and leaving single aggregates keeps every other membership, even
ones written by a concurrent writer between our read and our write."""

import uuid

import pytest

from placement_client import exception


@pytest.fixture
def rp_uuid(placement_client) -> str:
    return placement_client.create_provider(f"aggs-{uuid.uuid4()}").uuid


def _aggregates(n):
    return [str(uuid.uuid4()) for _ in range(n)]


def test_add_and_remove_keep_other_memberships(placement_client, rp_uuid):
    kept, added = _aggregates(2)
    placement_client.set_aggregates(rp_uuid, [kept])
    placement_client.update_aggregates(rp_uuid, add=[added])
    assert placement_client.get_aggregates(rp_uuid).aggregates == {kept, added}
    generation = placement_client.get_aggregates(rp_uuid).generation
    # Nothing to change: no write, same generation.
    assert placement_client.update_aggregates(rp_uuid, add=[added]) == generation
    placement_client.update_aggregates(rp_uuid, remove=[added])
    assert placement_client.get_aggregates(rp_uuid).aggregates == {kept}


def test_a_lost_race_is_retried_from_a_fresh_read(
    placement_client, rp_uuid, monkeypatch
):
    concurrent, ours = _aggregates(2)
    real_get = placement_client.get_aggregates
    raced = []

    def get_then_race(uuid, **kwargs):
        info = real_get(uuid, **kwargs)
        if not raced:
            # Another writer joins an aggregate after our first read.
            raced.append(placement_client.set_aggregates(uuid, [concurrent]))
        return info

    monkeypatch.setattr(placement_client, "get_aggregates", get_then_race)
    placement_client.update_aggregates(rp_uuid, add=[ours])
    assert real_get(rp_uuid).aggregates == {concurrent, ours}


def test_missing_provider(placement_client):
    with pytest.raises(exception.ResourceProviderNotFound):
        placement_client.update_aggregates(str(uuid.uuid4()), add=_aggregates(1))
