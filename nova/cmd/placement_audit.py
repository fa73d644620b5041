"""Orphaned allocations: what Placement holds for consumers nova doesn't know.

A consumer of a compute node's resources is an instance (being scheduled,
or live in its cell) or a migration record holding the source's resources
during a move. Allocations of any other consumer (a deleted or archived
instance, a migration that no longer exists) are orphaned: nothing will
ever free them, and the capacity they hold is lost to the cloud.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from nova import context as nova_context
from nova import exception, objects


@dataclasses.dataclass(frozen=True)
class Orphan:
    consumer_uuid: str
    provider_uuid: str
    resources: dict[str, int]


class KnownConsumers:
    """Answers whether nova knows a consumer, reading each one once."""

    def __init__(self, context) -> None:
        self._context = context
        self._cells = list(objects.CellMappingList.get_all(context))
        self._answers: dict[str, bool] = {}

    def __contains__(self, consumer_uuid: str) -> bool:
        if consumer_uuid not in self._answers:
            self._answers[consumer_uuid] = self._is_instance(
                consumer_uuid
            ) or self._is_migration(consumer_uuid)
        return self._answers[consumer_uuid]

    def _is_instance(self, consumer_uuid: str) -> bool:
        try:
            mapping = objects.InstanceMapping.get_by_instance_uuid(
                self._context, consumer_uuid
            )
        except exception.InstanceMappingNotFound:
            return False
        if mapping.cell_mapping is None:
            # Claimed by the scheduler, not yet created in a cell.
            return True
        with nova_context.target_cell(self._context, mapping.cell_mapping) as cctxt:
            try:
                objects.Instance.get_by_uuid(cctxt, consumer_uuid, expected_attrs=[])
            except exception.InstanceNotFound:
                return False
        return True

    def _is_migration(self, consumer_uuid: str) -> bool:
        for cell in self._cells:
            with nova_context.target_cell(self._context, cell) as cctxt:
                if objects.MigrationList.get_by_filters(cctxt, {"uuid": consumer_uuid}):
                    return True
        return False


def find_orphans(
    context,
    client,
    provider_uuid: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> list[Orphan]:
    """The orphaned allocations on every provider, or on one.

    :raises ResourceProviderNotFound: ``provider_uuid`` names no provider.
    """
    if provider_uuid is not None:
        providers = [client.get_provider(provider_uuid)]
    else:
        providers = client.list_providers()
    context = context.elevated(read_deleted="no")
    known = KnownConsumers(context)
    orphans = []
    for provider in providers:
        progress(f"Processing resource provider {provider.uuid} ({provider.name})")
        allocations = client.get_allocations_for_provider(provider.uuid)
        for consumer_uuid, resources in sorted(allocations.items()):
            if consumer_uuid not in known:
                orphans.append(Orphan(consumer_uuid, provider.uuid, resources))
    return orphans


def delete_orphan(client, orphan: Orphan) -> None:
    """Remove the orphan's consumer from its provider, and only from it."""
    current = client.get_allocations_for_consumer(orphan.consumer_uuid)
    rest = {
        rp_uuid: alloc
        for rp_uuid, alloc in current.allocations.items()
        if rp_uuid != orphan.provider_uuid
    }
    if not rest:
        client.remove_allocations(orphan.consumer_uuid)
        return
    client.put_allocations(
        orphan.consumer_uuid,
        rest,
        current.project_id,
        current.user_id,
        current.consumer_generation,
    )
