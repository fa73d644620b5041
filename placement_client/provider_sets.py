"""What a provider offers: its inventories, traits and aggregates.

Each of the three is replaced as a whole and guarded by the provider
generation. A writer that loses the race re-reads the generation and
writes again: the caller states the desired end state, so repeating the
write is safe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from oslo_log import log as logging

from placement_client import exception
from placement_client.transport import RequestContext, Transport

LOG = logging.getLogger(__name__)

# 1.26 lets reserved equal total (a fully reserved resource); error codes
# (1.23) tell a generation conflict from inventory in use.
INVENTORY_VERSION = "1.26"
# 1.19 puts the provider generation in aggregate bodies; 1.23 error codes.
ASSOCIATION_VERSION = "1.23"
TRAIT_CATALOG_VERSION = "1.6"

# Placement fills these in for fields a PUT leaves out; comparing against the
# filled-in form avoids rewriting an inventory that has not changed.
_INVENTORY_DEFAULTS = {
    "reserved": 0,
    "min_unit": 1,
    "max_unit": 2147483647,
    "step_size": 1,
    "allocation_ratio": 1.0,
}


class InventoryInfo(NamedTuple):
    """Inventory records keyed by resource class, and the provider generation."""

    inventories: dict[str, dict[str, Any]]
    generation: int


class TraitInfo(NamedTuple):
    traits: set[str]
    generation: int


class AggregateInfo(NamedTuple):
    aggregates: set[str]
    generation: int


def _inventories_equal(current: dict, desired: dict) -> bool:
    return current == {
        rc: {**_INVENTORY_DEFAULTS, **record} for rc, record in desired.items()
    }


def _sets_equal(current: list, desired: list) -> bool:
    return set(current) == set(desired)


class ProviderSetMethods:
    """Inventories, traits, aggregates; mixed into ``PlacementClient``."""

    _transport: Transport

    def get_inventory(
        self, uuid: str, *, context: RequestContext | None = None
    ) -> InventoryInfo:
        """Return the provider's inventories and generation.

        :raises ResourceProviderNotFound: no such provider.
        """
        body = self._read(uuid, "inventories", INVENTORY_VERSION, context)
        return InventoryInfo(body["inventories"], body["resource_provider_generation"])

    def set_inventory(
        self,
        uuid: str,
        inventories: Mapping[str, Mapping[str, Any]],
        *,
        generation: int | None = None,
        context: RequestContext | None = None,
    ) -> int:
        """Make the provider's inventories exactly ``inventories``.

        Resource classes left out are removed; ``{}`` removes them all.

        :param inventories: records keyed by resource class, each with
            ``total`` and optionally ``reserved``, ``min_unit``, ``max_unit``,
            ``step_size``, ``allocation_ratio``.
        :param generation: the provider generation the caller last saw; when
            None (or stale) the current one is read first.
        :returns: the provider generation after the update.
        :raises InventoryInUse: a removed resource class has allocations.
        :raises ResourceProviderGenerationConflict: still losing the race
            after the configured number of attempts.
        """
        desired = {rc: dict(record) for rc, record in inventories.items()}
        return self._replace(
            uuid,
            "inventories",
            INVENTORY_VERSION,
            desired,
            _inventories_equal,
            generation,
            context,
        )

    def get_traits(
        self, uuid: str, *, context: RequestContext | None = None
    ) -> TraitInfo:
        """Return the provider's traits and generation."""
        body = self._read(uuid, "traits", ASSOCIATION_VERSION, context)
        return TraitInfo(set(body["traits"]), body["resource_provider_generation"])

    def set_traits(
        self,
        uuid: str,
        traits: Iterable[str],
        *,
        generation: int | None = None,
        context: RequestContext | None = None,
    ) -> int:
        """Make the provider's traits exactly ``traits``.

        ``CUSTOM_*`` traits are created first if Placement lacks them.

        :returns: the provider generation after the update.
        :raises PlacementAPIError: 400 for an unknown standard trait.
        """
        desired = sorted(set(traits))
        self.ensure_custom_traits(desired, context=context)
        return self._replace(
            uuid,
            "traits",
            ASSOCIATION_VERSION,
            desired,
            _sets_equal,
            generation,
            context,
        )

    def ensure_custom_traits(
        self, traits: Iterable[str], *, context: RequestContext | None = None
    ) -> None:
        """Create the ``CUSTOM_*`` traits among ``traits`` that do not exist.

        Other (standard) traits are ignored: Placement ships them.
        """
        custom = sorted({trait for trait in traits if trait.startswith("CUSTOM_")})
        if not custom:
            return
        response = self._transport.request(
            "GET",
            "/traits",
            TRAIT_CATALOG_VERSION,
            params={"name": "in:" + ",".join(custom)},
            context=context,
        )
        existing = set(response.json()["traits"])
        for trait in custom:
            if trait not in existing:
                # PUT is idempotent: 201 when created, 204 when a concurrent
                # caller created it first.
                self._transport.request(
                    "PUT", f"/traits/{trait}", TRAIT_CATALOG_VERSION, context=context
                )

    def get_aggregates(
        self, uuid: str, *, context: RequestContext | None = None
    ) -> AggregateInfo:
        """Return the UUIDs of the provider's aggregates and its generation."""
        body = self._read(uuid, "aggregates", ASSOCIATION_VERSION, context)
        return AggregateInfo(
            set(body["aggregates"]), body["resource_provider_generation"]
        )

    def set_aggregates(
        self,
        uuid: str,
        aggregates: Iterable[str],
        *,
        generation: int | None = None,
        context: RequestContext | None = None,
    ) -> int:
        """Make the provider a member of exactly ``aggregates`` (UUIDs).

        :returns: the provider generation after the update.
        """
        desired = sorted(set(aggregates))
        return self._replace(
            uuid,
            "aggregates",
            ASSOCIATION_VERSION,
            desired,
            _sets_equal,
            generation,
            context,
        )

    def update_aggregates(
        self,
        uuid: str,
        *,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        context: RequestContext | None = None,
    ) -> int:
        """Join the aggregates ``add`` and leave ``remove``, keeping every
        other membership, including ones a concurrent writer adds meanwhile
        (each try re-reads the current set).

        :returns: the provider generation after the update.
        :raises ResourceProviderNotFound: no such provider.
        """
        path = f"/resource_providers/{uuid}/aggregates"
        add, remove = set(add), set(remove)

        def attempt() -> int:
            current = self.get_aggregates(uuid, context=context)
            desired = (current.aggregates | add) - remove
            if desired == current.aggregates:
                return current.generation
            body = {
                "aggregates": sorted(desired),
                "resource_provider_generation": current.generation,
            }
            response = self._transport.request(
                "PUT", path, ASSOCIATION_VERSION, json=body, context=context
            )
            return response.json()["resource_provider_generation"]

        return self._transport.retry_on_generation_conflict(
            f"updating aggregates of provider {uuid}", attempt
        )

    def _read(
        self, uuid: str, key: str, version: str, context: RequestContext | None
    ) -> dict[str, Any]:
        path = f"/resource_providers/{uuid}/{key}"
        return self._transport.request("GET", path, version, context=context).json()

    def _replace(
        self,
        uuid: str,
        key: str,
        version: str,
        desired: Any,
        equal: Callable[[Any, Any], bool],
        generation: int | None,
        context: RequestContext | None,
    ) -> int:
        path = f"/resource_providers/{uuid}/{key}"
        known = generation

        def attempt() -> int:
            nonlocal known
            if known is None:
                current = self._read(uuid, key, version, context)
                if equal(current[key], desired):
                    return current["resource_provider_generation"]
                known = current["resource_provider_generation"]
            body = {key: desired, "resource_provider_generation": known}
            try:
                response = self._transport.request(
                    "PUT", path, version, json=body, context=context
                )
            except exception.ResourceProviderGenerationConflict:
                known = None
                raise
            new_generation = response.json()["resource_provider_generation"]
            LOG.debug(
                "Set %s of provider %s at generation %d", key, uuid, new_generation
            )
            return new_generation

        return self._transport.retry_on_generation_conflict(
            f"setting {key} of provider {uuid}", attempt
        )
