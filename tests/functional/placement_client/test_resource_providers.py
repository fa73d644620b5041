"""Resource provider lifecycle against a real Placement."""

import threading
import uuid

import pytest

from placement_client import exception
from tests.fixtures.placement import make_client


def _new_uuid() -> str:
    return str(uuid.uuid4())


def test_provider_lifecycle(placement_client):
    rp_uuid = _new_uuid()
    name = f"compute-{rp_uuid}"

    created = placement_client.create_provider(name, uuid=rp_uuid)

    assert (created.uuid, created.name, created.generation) == (rp_uuid, name, 0)
    assert created.root_provider_uuid == rp_uuid
    assert placement_client.get_provider(rp_uuid) == created
    assert placement_client.find_provider(name) == created
    assert placement_client.delete_provider(rp_uuid) is True
    assert placement_client.find_provider(name) is None
    with pytest.raises(exception.ResourceProviderNotFound) as raised:
        placement_client.get_provider(rp_uuid)
    assert raised.value.uuid == rp_uuid
    assert raised.value.status == 404


def test_delete_missing_provider_returns_false(placement_client):
    assert placement_client.delete_provider(_new_uuid()) is False


def test_child_provider_and_parent_in_use(placement_client):
    root = placement_client.create_provider(f"root-{_new_uuid()}")
    child = placement_client.create_provider(
        f"child-{_new_uuid()}", parent_provider_uuid=root.uuid
    )

    assert child.parent_provider_uuid == root.uuid
    assert child.root_provider_uuid == root.uuid
    with pytest.raises(exception.ResourceProviderInUse) as raised:
        placement_client.delete_provider(root.uuid)
    assert raised.value.code == "placement.resource_provider.cannot_delete_parent"


def test_duplicate_name_conflicts(placement_client):
    name = f"dup-{_new_uuid()}"
    placement_client.create_provider(name)

    with pytest.raises(exception.ResourceProviderConflict) as raised:
        placement_client.create_provider(name)
    assert raised.value.status == 409
    assert raised.value.code == "placement.duplicate_name"


def test_ensure_provider_creates_once_and_then_returns_it(placement_client):
    rp_uuid = _new_uuid()

    first = placement_client.ensure_provider(rp_uuid, f"ensure-{rp_uuid}")
    second = placement_client.ensure_provider(rp_uuid, f"ensure-{rp_uuid}")

    assert first == second
    assert first.name == f"ensure-{rp_uuid}"
    assert placement_client.ensure_provider(_new_uuid()).generation == 0


def test_ensure_provider_name_taken_by_other_uuid(placement_client):
    name = f"taken-{_new_uuid()}"
    placement_client.create_provider(name)

    with pytest.raises(exception.ResourceProviderConflict):
        placement_client.ensure_provider(_new_uuid(), name)


def test_ensure_provider_racing_processes_agree(placement_endpoint):
    """Several services ensuring the same provider all get the one record."""
    rp_uuid = _new_uuid()
    clients = [make_client(placement_endpoint) for _ in range(4)]
    results, errors = [], []
    start = threading.Barrier(len(clients))

    def ensure(client):
        start.wait()
        try:
            results.append(client.ensure_provider(rp_uuid, f"race-{rp_uuid}"))
        except Exception as exc:  # reported below with the others
            errors.append(exc)

    threads = [threading.Thread(target=ensure, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    assert len(results) == len(clients)
    assert {rp.uuid for rp in results} == {rp_uuid}


def test_provider_usages_of_missing_provider(placement_client):
    with pytest.raises(exception.ResourceProviderNotFound):
        placement_client.get_provider_usages(_new_uuid())
