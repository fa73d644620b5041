import uuid
from collections.abc import Callable, Iterable, Mapping

import pytest


@pytest.fixture
def aggregate() -> str:
    """A fresh aggregate UUID: candidate queries filtered by it see only the
    providers this test put in it, whatever other tests left in Placement."""
    return str(uuid.uuid4())


@pytest.fixture
def make_provider(placement_client, aggregate) -> Callable[..., str]:
    """Create a provider in the test's aggregate; returns its UUID."""

    def make(
        inventory: Mapping[str, int],
        *,
        traits: Iterable[str] = (),
        parent: str | None = None,
    ) -> str:
        rp_uuid = str(uuid.uuid4())
        placement_client.create_provider(
            f"rp-{rp_uuid}", uuid=rp_uuid, parent_provider_uuid=parent
        )
        placement_client.set_inventory(
            rp_uuid, {rc: {"total": total} for rc, total in inventory.items()}
        )
        if traits:
            placement_client.set_traits(rp_uuid, traits)
        placement_client.set_aggregates(rp_uuid, [aggregate])
        return rp_uuid

    return make
