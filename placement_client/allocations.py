"""Allocations: claiming, reading, moving and removing a consumer's resources."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from placement_client import exception
from placement_client.transport import RequestContext, Transport

LOG = logging.getLogger(__name__)

# 1.28 adds consumer generations, so concurrent writers to one consumer are
# detected instead of overwriting each other. (1.38 would make
# ``consumer_type`` mandatory, which this client does not track.)
ALLOCATIONS_VERSION = "1.28"
# 1.9 adds GET /usages; later versions regroup it by consumer type.
USAGES_VERSION = "1.9"

Allocations = dict[str, dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class ConsumerAllocations:
    """A consumer's allocations as Placement reports them.

    ``allocations`` maps provider UUID to ``{"resources": {rc: amount},
    "generation": provider_generation}``. A consumer without allocations does
    not exist for Placement: its ``consumer_generation``, ``project_id`` and
    ``user_id`` are None.
    """

    allocations: Allocations
    consumer_generation: int | None = None
    project_id: str | None = None
    user_id: str | None = None


def _resources_only(allocations: Mapping[str, Mapping[str, Any]]) -> Allocations:
    return {
        rp_uuid: {"resources": dict(alloc["resources"])}
        for rp_uuid, alloc in allocations.items()
    }


def merge_for_move(
    current: Mapping[str, Mapping[str, Any]],
    requested: Mapping[str, Mapping[str, Any]],
) -> Allocations:
    """Allocations holding a consumer on its source and destination at once.

    While a move (evacuation, resize) is in flight the consumer keeps what it
    has on the source and adds what the destination needs. Providers the
    request shares with the current allocations (shared storage) are not
    counted twice, except when the request names no new provider at all: that
    is a resize on the same host, where both flavors' amounts must be held.
    """
    merged = _resources_only(current)
    new_providers = set(requested) - set(current)
    for rp_uuid, alloc in requested.items():
        if rp_uuid in new_providers:
            merged[rp_uuid] = {"resources": dict(alloc["resources"])}
        elif not new_providers:
            resources = merged[rp_uuid]["resources"]
            for rc, amount in alloc["resources"].items():
                resources[rc] = resources.get(rc, 0) + amount
    return merged


class AllocationMethods:
    """Mixed into :class:`placement_client.PlacementClient`."""

    _transport: Transport

    def get_allocations_for_consumer(
        self, consumer_uuid: str, *, context: RequestContext | None = None
    ) -> ConsumerAllocations:
        """Return the consumer's allocations and consumer generation."""
        response = self._transport.request(
            "GET", f"/allocations/{consumer_uuid}", ALLOCATIONS_VERSION, context=context
        )
        body = response.json()
        return ConsumerAllocations(
            allocations=body["allocations"],
            consumer_generation=body.get("consumer_generation"),
            project_id=body.get("project_id"),
            user_id=body.get("user_id"),
        )

    def claim_resources(
        self,
        consumer_uuid: str,
        allocation_request: Mapping[str, Any],
        project_id: str,
        user_id: str,
        consumer_generation: int | None = None,
        *,
        context: RequestContext | None = None,
    ) -> bool:
        """Allocate one allocation request (a candidate) to the consumer.

        If the consumer already holds allocations, a move is in flight: the
        claim keeps them and adds the destination's (see
        :func:`merge_for_move`), using the consumer generation just read
        unless the caller supplies its own.

        A provider generation race inside Placement is retried from a fresh
        read. A consumer generation conflict is not: someone else changed
        this consumer, and retrying could double or drop their allocations.

        :param allocation_request: one of ``get_allocation_candidates()``'s
            ``allocation_requests`` (its ``mappings`` are not sent).
        :param consumer_generation: the generation the caller last saw; None
            when it expects a new consumer.
        :returns: True when claimed; False when the providers no longer have
            the capacity (the caller should try the next candidate) or the
            race was lost too many times.
        :raises ConsumerGenerationConflict: the consumer changed concurrently.
        """
        requested = allocation_request["allocations"]

        def attempt() -> None:
            current = self.get_allocations_for_consumer(consumer_uuid, context=context)
            generation = consumer_generation
            allocations = _resources_only(requested)
            if current.allocations:
                allocations = merge_for_move(current.allocations, requested)
                if generation is None:
                    generation = current.consumer_generation
            body = {
                "allocations": allocations,
                "project_id": project_id,
                "user_id": user_id,
                "consumer_generation": generation,
            }
            self._transport.request(
                "PUT",
                f"/allocations/{consumer_uuid}",
                ALLOCATIONS_VERSION,
                json=body,
                context=context,
            )

        try:
            self._transport.retry_on_generation_conflict(
                f"claiming resources for consumer {consumer_uuid}", attempt
            )
        except exception.ClaimConflict as exc:
            LOG.info("Claim for consumer %s refused: %s", consumer_uuid, exc.detail)
            return False
        except exception.ResourceProviderGenerationConflict:
            LOG.warning(
                "Claim for consumer %s kept losing provider generation races",
                consumer_uuid,
            )
            return False
        return True

    def get_allocations_for_provider(
        self, rp_uuid: str, *, context: RequestContext | None = None
    ) -> dict[str, dict[str, int]]:
        """Return what each consumer holds on the provider: consumer UUID to
        ``{resource class: amount}``.

        :raises ResourceProviderNotFound: no such provider.
        """
        response = self._transport.request(
            "GET",
            f"/resource_providers/{rp_uuid}/allocations",
            ALLOCATIONS_VERSION,
            context=context,
        )
        return {
            consumer: dict(alloc["resources"])
            for consumer, alloc in response.json()["allocations"].items()
        }

    def put_allocations(
        self,
        consumer_uuid: str,
        allocations: Mapping[str, Mapping[str, Any]],
        project_id: str,
        user_id: str,
        consumer_generation: int | None,
        *,
        context: RequestContext | None = None,
    ) -> None:
        """Replace all of the consumer's allocations with ``allocations``
        (provider UUID to ``{"resources": {rc: amount}}``).

        :param consumer_generation: the generation last read; None for a
            consumer without allocations.
        :raises ClaimConflict: the providers lack the capacity.
        :raises ConsumerGenerationConflict: the consumer changed meanwhile.
        """
        body = {
            "allocations": _resources_only(allocations),
            "project_id": project_id,
            "user_id": user_id,
            "consumer_generation": consumer_generation,
        }
        self._transport.retry_on_generation_conflict(
            f"setting the allocations of consumer {consumer_uuid}",
            lambda: self._transport.request(
                "PUT",
                f"/allocations/{consumer_uuid}",
                ALLOCATIONS_VERSION,
                json=body,
                context=context,
            ),
        )

    def remove_allocations(
        self, consumer_uuid: str, *, context: RequestContext | None = None
    ) -> bool:
        """Delete all of the consumer's allocations; False if it had none."""
        try:
            self._transport.request(
                "DELETE",
                f"/allocations/{consumer_uuid}",
                ALLOCATIONS_VERSION,
                context=context,
            )
        except exception.PlacementAPIError as exc:
            if exc.status != 404:
                raise
            return False
        return True

    def remove_provider_from_consumer(
        self,
        consumer_uuid: str,
        rp_uuid: str,
        *,
        context: RequestContext | None = None,
    ) -> bool:
        """Drop what the consumer holds on one provider, keeping the rest
        (a move's source or destination given up); False if it held
        nothing there.

        :raises ConsumerGenerationConflict: the consumer changed
            concurrently.
        """

        def attempt() -> bool:
            current = self.get_allocations_for_consumer(consumer_uuid, context=context)
            if rp_uuid not in current.allocations:
                return False
            body = {
                "allocations": _resources_only(
                    {
                        rp: alloc
                        for rp, alloc in current.allocations.items()
                        if rp != rp_uuid
                    }
                ),
                "project_id": current.project_id,
                "user_id": current.user_id,
                "consumer_generation": current.consumer_generation,
            }
            self._transport.request(
                "PUT",
                f"/allocations/{consumer_uuid}",
                ALLOCATIONS_VERSION,
                json=body,
                context=context,
            )
            return True

        return self._transport.retry_on_generation_conflict(
            f"removing provider {rp_uuid} from consumer {consumer_uuid}", attempt
        )

    def move_allocations(
        self,
        source_consumer_uuid: str,
        target_consumer_uuid: str,
        *,
        context: RequestContext | None = None,
    ) -> bool:
        """Move all of the source consumer's allocations to the target.

        Used to hand an instance's allocations to its migration record (and
        back on revert). Both consumers change in one atomic request; any
        allocations the target had are replaced.

        :returns: False if the source had nothing to move.
        :raises ConsumerGenerationConflict: either consumer changed
            concurrently.
        """

        def attempt() -> bool:
            source = self.get_allocations_for_consumer(
                source_consumer_uuid, context=context
            )
            if not source.allocations:
                return False
            target = self.get_allocations_for_consumer(
                target_consumer_uuid, context=context
            )
            if target.allocations:
                LOG.warning(
                    "Replacing allocations of consumer %s with those of %s",
                    target_consumer_uuid,
                    source_consumer_uuid,
                )
            owner = {"project_id": source.project_id, "user_id": source.user_id}
            body = {
                source_consumer_uuid: {
                    "allocations": {},
                    "consumer_generation": source.consumer_generation,
                    **owner,
                },
                target_consumer_uuid: {
                    "allocations": _resources_only(source.allocations),
                    "consumer_generation": target.consumer_generation,
                    **owner,
                },
            }
            self._transport.request(
                "POST", "/allocations", ALLOCATIONS_VERSION, json=body, context=context
            )
            return True

        return self._transport.retry_on_generation_conflict(
            f"moving allocations of {source_consumer_uuid} to {target_consumer_uuid}",
            attempt,
        )

    def get_usages(
        self,
        project_id: str,
        user_id: str | None = None,
        *,
        context: RequestContext | None = None,
    ) -> dict[str, int]:
        """Return the amount allocated per resource class to a project (user)."""
        params = {"project_id": project_id}
        if user_id is not None:
            params["user_id"] = user_id
        response = self._transport.request(
            "GET", "/usages", USAGES_VERSION, params=params, context=context
        )
        return response.json()["usages"]
