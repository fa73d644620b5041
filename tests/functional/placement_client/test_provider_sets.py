"""Inventories, traits and aggregates against a real Placement."""

import threading
import uuid

import pytest

from placement_client import exception
from tests.fixtures.placement import make_client

INVENTORY = {
    "VCPU": {"total": 8, "allocation_ratio": 4.0},
    "MEMORY_MB": {"total": 4096, "reserved": 512, "max_unit": 2048},
}


@pytest.fixture
def rp_uuid(placement_client) -> str:
    return placement_client.create_provider(f"sets-{uuid.uuid4()}").uuid


def test_set_and_get_inventory(placement_client, rp_uuid):
    generation = placement_client.set_inventory(rp_uuid, INVENTORY)

    inventories, read_generation = placement_client.get_inventory(rp_uuid)
    assert read_generation == generation == 1
    assert inventories["VCPU"]["total"] == 8
    assert inventories["VCPU"]["allocation_ratio"] == 4.0
    assert inventories["MEMORY_MB"]["reserved"] == 512
    assert inventories["MEMORY_MB"]["min_unit"] == 1


def test_unchanged_inventory_is_not_rewritten(placement_client, rp_uuid):
    generation = placement_client.set_inventory(rp_uuid, INVENTORY)

    assert placement_client.set_inventory(rp_uuid, INVENTORY) == generation
    assert placement_client.get_provider(rp_uuid).generation == generation


def test_stale_generation_is_refreshed_and_retried(placement_client, rp_uuid):
    placement_client.set_inventory(rp_uuid, INVENTORY)  # generation 0 -> 1

    generation = placement_client.set_inventory(
        rp_uuid, {"VCPU": {"total": 16}}, generation=0
    )

    assert generation == 2
    inventories, _ = placement_client.get_inventory(rp_uuid)
    assert set(inventories) == {"VCPU"}
    assert inventories["VCPU"]["total"] == 16


def test_generation_race_exhausts_attempts(placement_endpoint, rp_uuid):
    client = make_client(placement_endpoint, max_attempts=1)
    client.set_inventory(rp_uuid, INVENTORY)

    with pytest.raises(exception.ResourceProviderGenerationConflict) as raised:
        client.set_inventory(rp_uuid, {"VCPU": {"total": 1}}, generation=0)
    assert raised.value.code == "placement.concurrent_update"


def test_concurrent_writers_both_converge(placement_endpoint, rp_uuid):
    """Inventory and trait updates racing on one provider both land.

    Each writer keeps its own cached generation, as a compute service does,
    so every write by one makes the other's cache stale. A writer can only
    lose as often as the other one writes, so enough attempts always win.
    """
    rounds = 5
    client = make_client(placement_endpoint, max_attempts=rounds + 2)
    errors = []
    start = threading.Barrier(2)

    def write_inventory():
        generation = None
        start.wait()
        for total in range(1, rounds + 1):
            generation = client.set_inventory(
                rp_uuid, {"VCPU": {"total": total}}, generation=generation
            )

    def write_traits():
        generation = None
        start.wait()
        for n in range(1, rounds + 1):
            traits = ["HW_CPU_X86_AVX"] if n % 2 else ["HW_CPU_X86_SSE"]
            generation = client.set_traits(rp_uuid, traits, generation=generation)

    def run(target):
        try:
            target()
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [
        threading.Thread(target=run, args=(target,))
        for target in (write_inventory, write_traits)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    inventories, generation = client.get_inventory(rp_uuid)
    assert inventories["VCPU"]["total"] == rounds
    assert client.get_traits(rp_uuid) == ({"HW_CPU_X86_AVX"}, generation)
    assert generation == 2 * rounds


def test_removing_allocated_inventory_is_in_use(placement_client, rp_uuid):
    placement_client.set_inventory(rp_uuid, INVENTORY)
    consumer = str(uuid.uuid4())
    assert placement_client.claim_resources(
        consumer,
        {"allocations": {rp_uuid: {"resources": {"VCPU": 2}}}},
        project_id="p",
        user_id="u",
    )

    with pytest.raises(exception.InventoryInUse) as raised:
        placement_client.set_inventory(rp_uuid, {"MEMORY_MB": {"total": 4096}})
    assert "VCPU" in str(raised.value)
    with pytest.raises(exception.InventoryInUse):
        placement_client.set_inventory(rp_uuid, {})

    # Without allocations the same removal goes through.
    placement_client.remove_allocations(consumer)
    placement_client.set_inventory(rp_uuid, {})
    assert placement_client.get_inventory(rp_uuid).inventories == {}


def test_shrinking_below_usage_is_accepted(placement_client, rp_uuid):
    """Placement only logs when capacity drops under usage; nothing raises."""
    placement_client.set_inventory(rp_uuid, INVENTORY)
    placement_client.claim_resources(
        str(uuid.uuid4()),
        {"allocations": {rp_uuid: {"resources": {"VCPU": 8}}}},
        project_id="p",
        user_id="u",
    )

    placement_client.set_inventory(rp_uuid, {**INVENTORY, "VCPU": {"total": 1}})

    assert placement_client.get_provider_usages(rp_uuid) == {"VCPU": 8, "MEMORY_MB": 0}


def test_traits_with_custom_ones_created(placement_client, rp_uuid):
    custom = f"CUSTOM_T_{uuid.uuid4().hex.upper()}"

    generation = placement_client.set_traits(rp_uuid, ["HW_CPU_X86_AVX2", custom])

    assert placement_client.get_traits(rp_uuid) == (
        {"HW_CPU_X86_AVX2", custom},
        generation,
    )
    # Ensuring again is harmless.
    placement_client.ensure_custom_traits([custom, "HW_CPU_X86_AVX2"])
    assert placement_client.set_traits(rp_uuid, []) == generation + 1
    assert placement_client.get_traits(rp_uuid).traits == set()


def test_unknown_standard_trait_is_rejected(placement_client, rp_uuid):
    with pytest.raises(exception.PlacementAPIError) as raised:
        placement_client.set_traits(rp_uuid, ["HW_NO_SUCH_TRAIT_EVER"])
    assert raised.value.status == 400


def test_aggregates(placement_client, rp_uuid):
    aggregates = {str(uuid.uuid4()), str(uuid.uuid4())}

    generation = placement_client.set_aggregates(rp_uuid, aggregates)
    assert placement_client.get_aggregates(rp_uuid) == (aggregates, generation)

    stale = placement_client.set_aggregates(rp_uuid, [], generation=generation - 1)
    assert stale == generation + 1
    assert placement_client.get_aggregates(rp_uuid).aggregates == set()


def test_sets_of_missing_provider(placement_client):
    missing = str(uuid.uuid4())
    with pytest.raises(exception.ResourceProviderNotFound):
        placement_client.set_inventory(missing, INVENTORY)
    with pytest.raises(exception.ResourceProviderNotFound):
        placement_client.get_traits(missing)
