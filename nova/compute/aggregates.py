"""Host aggregate management behind the os-aggregates API.

The API database holds aggregates; Placement holds their mirror: the
resource provider of every compute node of a member host is in the
Placement aggregate of the same UUID, which is what the scheduler's
``member_of`` request filters ask Placement about. A failure to mirror is
logged, not returned to the user: ``nova-manage placement sync_aggregates``
puts Placement right again.
"""

from __future__ import annotations

from oslo_log import log as logging
from oslo_utils import uuidutils

import placement_client.exception as placement_exc
from nova import context as nova_context
from nova import exception, objects, placement
from nova.notifications import events as notification_events
from nova.objects.aggregate import AZ_METADATA_KEY

LOG = logging.getLogger(__name__)


def create(context, name: str, availability_zone: str | None) -> objects.Aggregate:
    """:raises AggregateNameExists: the name is taken."""
    aggregate = objects.Aggregate(context, name=name, uuid=uuidutils.generate_uuid())
    if availability_zone:
        aggregate.metadata = {AZ_METADATA_KEY: availability_zone}
    with notification_events.aggregate(context, aggregate, "create"):
        aggregate.create()
    return aggregate


def update(context, aggregate_id: int, values: dict) -> objects.Aggregate:
    """Rename and/or move the aggregate to another availability zone.

    :raises InvalidAggregateActionUpdate: the zone is empty or its hosts
        are in another zone through another aggregate.
    """
    aggregate = objects.Aggregate.get_by_id(context, aggregate_id)
    if AZ_METADATA_KEY in values:
        _check_zone(context, aggregate, values, aggregate.hosts,
                    exception.InvalidAggregateActionUpdate)  # fmt: skip
    if "name" in values:
        aggregate.name = values["name"]
    if AZ_METADATA_KEY in values:
        aggregate.availability_zone = values[AZ_METADATA_KEY]
    with notification_events.aggregate(context, aggregate, "update_prop"):
        aggregate.save()
    return aggregate


def set_metadata(context, aggregate_id: int, metadata: dict) -> objects.Aggregate:
    """Set keys, remove those given as None.

    :raises InvalidAggregateActionUpdateMeta: see :func:`update`.
    """
    aggregate = objects.Aggregate.get_by_id(context, aggregate_id)
    _check_zone(context, aggregate, metadata, aggregate.hosts,
                exception.InvalidAggregateActionUpdateMeta)  # fmt: skip
    removed = [k for k, v in metadata.items() if v is None]
    # Removing a key that is not there is not an error of set_metadata.
    present = {k: v for k, v in metadata.items() if v is not None}
    present.update({k: None for k in removed if k in aggregate.metadata})
    with notification_events.aggregate(context, aggregate, "update_metadata"):
        aggregate.update_metadata(present)
    return aggregate


def delete(context, aggregate_id: int) -> None:
    """:raises InvalidAggregateActionDelete: the aggregate still has hosts."""
    aggregate = objects.Aggregate.get_by_id(context, aggregate_id)
    if aggregate.hosts:
        raise exception.InvalidAggregateActionDelete(
            aggregate_id=aggregate_id, reason="Host aggregate is not empty"
        )
    with notification_events.aggregate(context, aggregate, "delete"):
        aggregate.destroy()


def add_host(context, aggregate_id: int, host: str) -> objects.Aggregate:
    """Add a compute host, and its nodes to the Placement aggregate.

    :raises ComputeHostNotFound: no compute service of that name.
    :raises AggregateHostExists: already a member.
    :raises InvalidAggregateActionAdd: the host is in another zone.
    """
    nodes = _compute_nodes(context, host)
    aggregate = objects.Aggregate.get_by_id(context, aggregate_id)
    _check_zone(context, aggregate, aggregate.metadata, [host],
                exception.InvalidAggregateActionAdd)  # fmt: skip
    with notification_events.aggregate(context, aggregate, "add_host"):
        aggregate.add_host(host)
    _mirror(context, aggregate, nodes, add=True)
    return aggregate


def remove_host(context, aggregate_id: int, host: str) -> objects.Aggregate:
    """Remove a host, and its nodes from the Placement aggregate.

    :raises ComputeHostNotFound, AggregateNotFound, AggregateHostNotFound
    """
    nodes = _compute_nodes(context, host)
    aggregate = objects.Aggregate.get_by_id(context, aggregate_id)
    with notification_events.aggregate(context, aggregate, "remove_host"):
        aggregate.delete_host(host)
    _mirror(context, aggregate, nodes, add=False)
    return aggregate


def _check_zone(context, aggregate, metadata: dict, hosts, error) -> None:
    """A host is in one availability zone: refuse a zone that differs from
    one another aggregate already gives any of ``hosts``."""
    if AZ_METADATA_KEY not in metadata:
        return
    zone = metadata[AZ_METADATA_KEY]
    if not zone:
        raise error(
            aggregate_id=aggregate.id,
            reason=f"Aggregate {aggregate.name} does not support empty named "
            "availability zone",
        )
    conflicting = sorted(
        {
            other.availability_zone
            for host in hosts
            for other in objects.AggregateList.get_by_host(
                context, host, key=AZ_METADATA_KEY
            )
            if other.id != aggregate.id and other.availability_zone != zone
        }
    )
    if conflicting:
        raise error(
            aggregate_id=aggregate.id,
            reason=f"One or more hosts already in availability zone(s) {conflicting}",
        )


def _compute_nodes(context, host: str) -> list:
    """The compute nodes of ``host``, from the cell it is mapped to."""
    try:
        mapping = objects.HostMapping.get_by_host(context, host)
    except exception.HostMappingNotFound as exc:
        raise exception.ComputeHostNotFound(host=host) from exc
    with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
        objects.Service.get_by_compute_host(cctxt, host)
        try:
            return list(objects.ComputeNodeList.get_all_by_host(cctxt, host))
        except exception.ComputeHostNotFound:
            # The service has not reported a node yet: nothing to mirror.
            return []


def _mirror(context, aggregate, nodes, add: bool) -> None:
    change = {"add" if add else "remove": [aggregate.uuid]}
    for node in nodes:
        try:
            placement.client().update_aggregates(node.uuid, context=context, **change)
        except placement_exc.PlacementClientError as exc:
            LOG.warning(
                "Aggregate %s of host %s is not mirrored in Placement for "
                "provider %s (nova-manage placement sync_aggregates repairs "
                "it): %s",
                aggregate.uuid,
                node.host,
                node.uuid,
                exc,
            )


def sync_aggregates(context) -> tuple[list[str], list[str]]:
    """Put the providers of every aggregate's hosts into its Placement
    aggregate (``nova-manage placement sync_aggregates``).

    :returns: the hosts that have no host mapping, and those whose
        providers Placement could not update.
    """
    unmapped, failed = [], []
    for aggregate in objects.AggregateList.get_all(context):
        for host in aggregate.hosts:
            try:
                nodes = _compute_nodes(context, host)
            except exception.ComputeHostNotFound:
                unmapped.append(host)
                continue
            for node in nodes:
                try:
                    placement.client().update_aggregates(
                        node.uuid, add=[aggregate.uuid], context=context
                    )
                except placement_exc.PlacementClientError as exc:
                    LOG.warning("Cannot mirror host %s into Placement: %s", host, exc)
                    failed.append(host)
    return unmapped, failed
