"""Claims, moves and removal of allocations against a real Placement."""

import uuid

import pytest

from placement_client import exception


def _new_uuid() -> str:
    return str(uuid.uuid4())


def _request(rp_uuid: str, **resources: int) -> dict:
    return {"allocations": {rp_uuid: {"resources": resources}}}


@pytest.fixture
def project() -> str:
    return _new_uuid()


@pytest.fixture
def host(make_provider) -> str:
    return make_provider({"VCPU": 4, "MEMORY_MB": 2048})


def test_claim_from_candidate_then_over_capacity(
    placement_client, host, aggregate, project
):
    wanted = {"VCPU": 3, "MEMORY_MB": 1024}
    candidates = placement_client.get_allocation_candidates(
        wanted, member_of=[aggregate]
    )
    (candidate,) = candidates.allocation_requests
    first, second = _new_uuid(), _new_uuid()

    assert placement_client.claim_resources(first, candidate, project, "user")
    # The same candidate no longer fits: the scheduler moves on.
    assert not placement_client.claim_resources(second, candidate, project, "user")

    claimed = placement_client.get_allocations_for_consumer(first)
    assert claimed.allocations[host]["resources"] == wanted
    assert claimed.consumer_generation == 1
    assert (claimed.project_id, claimed.user_id) == (project, "user")
    assert placement_client.get_allocations_for_consumer(second).allocations == {}
    assert placement_client.get_provider_usages(host) == wanted


def test_wrong_consumer_generation_raises(placement_client, host, project):
    consumer = _new_uuid()

    # A consumer expected to exist (generation 3) but new to Placement.
    with pytest.raises(exception.ConsumerGenerationConflict) as raised:
        placement_client.claim_resources(
            consumer, _request(host, VCPU=1), project, "user", consumer_generation=3
        )
    assert raised.value.code == "placement.concurrent_update"
    assert placement_client.get_allocations_for_consumer(consumer).allocations == {}

    assert placement_client.claim_resources(
        consumer, _request(host, VCPU=1), project, "u"
    )
    with pytest.raises(exception.ConsumerGenerationConflict):
        placement_client.claim_resources(
            consumer, _request(host, VCPU=1), project, "u", consumer_generation=7
        )


def test_claim_for_consumer_with_allocations_doubles_up(
    placement_client, make_provider, host, project
):
    """A move claims the destination while keeping the source."""
    destination = make_provider({"VCPU": 4, "MEMORY_MB": 2048})
    instance = _new_uuid()
    placement_client.claim_resources(instance, _request(host, VCPU=2), project, "u")

    assert placement_client.claim_resources(
        instance, _request(destination, VCPU=2), project, "u"
    )

    allocations = placement_client.get_allocations_for_consumer(instance)
    assert allocations.allocations.keys() == {host, destination}
    assert allocations.consumer_generation == 2
    # Resize on the same host: both flavors are held on it.
    assert placement_client.claim_resources(
        instance, _request(destination, VCPU=1), project, "u"
    )
    assert placement_client.get_provider_usages(destination)["VCPU"] == 2 + 1


def test_remove_one_provider_keeps_the_others(
    placement_client, make_provider, host, project
):
    """An evacuated instance gives up its source, keeping its destination."""
    destination = make_provider({"VCPU": 4, "MEMORY_MB": 2048})
    instance = _new_uuid()
    placement_client.claim_resources(instance, _request(host, VCPU=2), project, "u")
    placement_client.claim_resources(
        instance, _request(destination, VCPU=2), project, "u"
    )

    assert placement_client.remove_provider_from_consumer(instance, host)

    allocations = placement_client.get_allocations_for_consumer(instance)
    assert allocations.allocations.keys() == {destination}
    assert placement_client.get_provider_usages(host)["VCPU"] == 0
    assert not placement_client.remove_provider_from_consumer(instance, host)


def test_remove_allocations_brings_usages_to_zero(placement_client, host, project):
    consumers = [_new_uuid(), _new_uuid()]
    for consumer in consumers:
        placement_client.claim_resources(
            consumer, _request(host, VCPU=1, MEMORY_MB=256), project, "u"
        )
    assert placement_client.get_usages(project) == {"VCPU": 2, "MEMORY_MB": 512}

    assert all(placement_client.remove_allocations(c) for c in consumers)

    assert placement_client.get_usages(project) == {}
    assert placement_client.get_provider_usages(host) == {"VCPU": 0, "MEMORY_MB": 0}
    assert placement_client.remove_allocations(consumers[0]) is False


def test_usages_per_user(placement_client, host, project):
    placement_client.claim_resources(_new_uuid(), _request(host, VCPU=1), project, "a")
    placement_client.claim_resources(_new_uuid(), _request(host, VCPU=2), project, "b")

    assert placement_client.get_usages(project) == {"VCPU": 3}
    assert placement_client.get_usages(project, user_id="b") == {"VCPU": 2}


def test_move_allocations(placement_client, host, project):
    instance, migration = _new_uuid(), _new_uuid()
    placement_client.claim_resources(
        instance, _request(host, VCPU=2, MEMORY_MB=512), project, "u"
    )

    assert placement_client.move_allocations(instance, migration)

    assert placement_client.get_allocations_for_consumer(instance).allocations == {}
    moved = placement_client.get_allocations_for_consumer(migration)
    assert moved.allocations[host]["resources"] == {"VCPU": 2, "MEMORY_MB": 512}
    assert (moved.project_id, moved.user_id) == (project, "u")
    assert placement_client.get_provider_usages(host) == {"VCPU": 2, "MEMORY_MB": 512}
    # Nothing left to move.
    assert placement_client.move_allocations(instance, migration) is False


def test_move_replaces_target_allocations(placement_client, host, project):
    source, target = _new_uuid(), _new_uuid()
    placement_client.claim_resources(source, _request(host, VCPU=1), project, "u")
    placement_client.claim_resources(target, _request(host, VCPU=3), project, "u")

    assert placement_client.move_allocations(source, target)

    moved = placement_client.get_allocations_for_consumer(target)
    assert moved.allocations[host]["resources"] == {"VCPU": 1}
    assert placement_client.get_provider_usages(host)["VCPU"] == 1


def test_claim_against_missing_provider_is_refused(placement_client, project):
    # Placement answers 400 for providers it does not know.
    with pytest.raises(exception.PlacementAPIError) as raised:
        placement_client.claim_resources(
            _new_uuid(), _request(_new_uuid(), VCPU=1), project, "u"
        )
    assert raised.value.status == 400
