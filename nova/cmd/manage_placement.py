"""``nova-manage placement …``: Placement repairs from the nova side."""

from __future__ import annotations

from oslo_utils import uuidutils

import placement_client.exception as placement_exc
from nova import context as nova_context
from nova import exception, objects, placement
from nova.cmd import placement_audit, placement_heal
from nova.cmd.manage_common import args, error
from nova.compute import aggregates

INVALID_INPUT = 127


class PlacementCommands:
    """Placement, as seen from the API database."""

    @args("--verbose", action="store_true", help="Say what was synchronized")
    def sync_aggregates(self, verbose: bool = False) -> int:
        """Mirror host aggregate membership into Placement aggregates.

        Returns 0 on success, 3 when Placement refused an update, 4 when an
        aggregate member has no host mapping (run ``cell_v2 discover_hosts``).
        """
        unmapped, failed = aggregates.sync_aggregates(nova_context.get_admin_context())
        if unmapped:
            error(
                "Hosts without a host mapping (run nova-manage cell_v2 "
                f"discover_hosts): {', '.join(sorted(set(unmapped)))}"
            )
            return 4
        if failed:
            error(
                "Placement could not be updated for hosts: "
                f"{', '.join(sorted(set(failed)))}"
            )
            return 3
        if verbose:
            print("Placement aggregates are in sync with the host aggregates.")
        return 0

    @args("--verbose", action="store_true", help="Say what is being checked")
    @args("--delete", action="store_true", help="Delete the orphaned allocations")
    @args(
        "--resource_provider",
        metavar="<provider_uuid>",
        help="Check only the resource provider with this UUID",
    )
    def audit(
        self,
        verbose: bool = False,
        delete: bool = False,
        resource_provider: str | None = None,
    ) -> int:
        """Find allocations that no instance or migration accounts for.

        Looks at every resource provider (or one) for allocations of
        consumers that are neither an instance (being scheduled, or live in
        its cell) nor an existing migration, and deletes them with --delete.
        Returns 0 if there are none, 3 if some were found, 4 if all that
        were found were deleted, 1 on an unexpected error, 127 on invalid
        input.
        """
        if resource_provider is not None and not uuidutils.is_uuid_like(
            resource_provider
        ):
            error(f"Invalid resource provider UUID: {resource_provider}")
            return INVALID_INPUT
        progress = print if verbose else (lambda message: None)
        client = placement.client()
        try:
            orphans = placement_audit.find_orphans(
                nova_context.get_admin_context(), client, resource_provider, progress
            )
            for orphan in orphans:
                print(
                    f"Allocations of consumer {orphan.consumer_uuid} on resource "
                    f"provider {orphan.provider_uuid} ({_amounts(orphan.resources)}) "
                    "belong to no instance or migration"
                )
                if delete:
                    placement_audit.delete_orphan(client, orphan)
                    print(
                        f"Deleted the allocations of consumer {orphan.consumer_uuid} "
                        f"on resource provider {orphan.provider_uuid}"
                    )
        except placement_exc.ResourceProviderNotFound:
            error(f"Resource provider {resource_provider} not found")
            return INVALID_INPUT
        except (placement_exc.PlacementClientError, exception.NovaException) as exc:
            error(f"Audit failed: {exc}")
            return 1
        if verbose:
            print(f"Found {len(orphans)} orphaned allocations.")
        if not orphans:
            return 0
        return 4 if delete else 3

    @args(
        "--max-count",
        type=int,
        dest="max_count",
        metavar="<max_count>",
        help="Heal at most this many instances (run again until it returns 0 or 4)",
    )
    @args("--verbose", action="store_true", help="Say what is being done")
    @args(
        "--dry-run",
        action="store_true",
        dest="dry_run",
        help="Say which allocations would be created, create none",
    )
    @args(
        "--instance",
        metavar="<instance_uuid>",
        dest="instance_uuid",
        help="Heal only this instance (not with --cell)",
    )
    @args(
        "--cell",
        metavar="<cell_uuid>",
        dest="cell_uuid",
        help="Heal only the instances of this cell (not with --instance)",
    )
    @args(
        "--force",
        action="store_true",
        help="Replace the instance's allocations even if it has some "
        "(requires --instance)",
    )
    @args(
        "--skip-port-allocations",
        action="store_true",
        dest="skip_port_allocations",
        help="Accepted as upstream's: ports' resource requests (QoS) are not "
        "healed here in any case",
    )
    def heal_allocations(
        self,
        max_count: int | None = None,
        verbose: bool = False,
        dry_run: bool = False,
        instance_uuid: str | None = None,
        cell_uuid: str | None = None,
        force: bool = False,
        skip_port_allocations: bool = False,
    ) -> int:
        """Create the allocations of instances Placement holds nothing for.

        Every instance settled on a host (no task in progress) of every
        cell but cell0, or of --cell, or only --instance, gets its flavor's
        resources allocated against its compute node's resource provider.
        Returns 0 if allocations were created, 1 if --max-count was reached
        (run it again), 2 if an instance's compute node has no record, 3 if
        Placement refused an allocation, 4 if nothing was created (always
        with --dry-run), 127 on invalid input.
        """
        if instance_uuid and cell_uuid:
            error("--instance and --cell are mutually exclusive")
            return INVALID_INPUT
        if force and not instance_uuid:
            error("--force requires --instance")
            return INVALID_INPUT
        if max_count is not None and max_count < 1:
            error("--max-count must be a positive number")
            return INVALID_INPUT
        context = nova_context.get_admin_context()
        try:
            targets = _heal_targets(context, instance_uuid, cell_uuid)
        except exception.NotFound as exc:
            error(exc.format_message())
            return INVALID_INPUT
        client = placement.client()
        healed = 0
        try:
            for cctxt, instance in targets:
                result = placement_heal.heal_instance(
                    cctxt, client, instance, force=force, dry_run=dry_run
                )
                if result is None:
                    continue
                healed += 1
                verb = "Would create" if dry_run else "Created"
                if verbose or dry_run:
                    print(
                        f"{verb} allocations for instance {result.instance_uuid} on "
                        f"resource provider {result.provider_uuid}: "
                        f"{_amounts(result.resources)}"
                    )
                if max_count is not None and healed >= max_count:
                    print(f"Max count reached. Processed {healed} instances.")
                    return 1
        except placement_heal.ComputeNodeMissing as exc:
            error(exc.format_message())
            return 2
        except placement_heal.AllocationRefused as exc:
            error(exc.format_message())
            return 3
        if verbose:
            print(f"Processed {healed} instances.")
        return 0 if healed and not dry_run else 4


def _amounts(resources: dict[str, int]) -> str:
    return ", ".join(f"{rc}={amount}" for rc, amount in sorted(resources.items()))


def _heal_targets(context, instance_uuid, cell_uuid):
    """(cell-targeted context, instance) pairs to heal, lazily.

    :raises NotFound: the instance, its mapping or the cell does not exist.
    """
    if instance_uuid:
        mapping = objects.InstanceMapping.get_by_instance_uuid(context, instance_uuid)
        if mapping.cell_mapping is None:
            raise exception.InstanceNotFound(instance_id=instance_uuid)
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            instance = objects.Instance.get_by_uuid(cctxt, instance_uuid)
        return iter([(cctxt, instance)])
    if cell_uuid:
        cells = [objects.CellMapping.get_by_uuid(context, cell_uuid)]
    else:
        cells = [
            cell
            for cell in objects.CellMappingList.get_all(context)
            if not cell.is_cell0()
        ]
    return _instances_in(context, cells)


def _instances_in(context, cells):
    for cell in cells:
        with nova_context.target_cell(context, cell) as cctxt:
            for instance in placement_heal.instances_of(cctxt):
                yield cctxt, instance
