"""Request filters: narrow the Placement query before any host is read.

Each filter looks at the request spec and adds ``member_of``, ``in_tree`` or
forbidden traits to the :class:`~nova.scheduler.utils.ResourceRequest`, so
that Placement itself leaves out hosts that cannot be chosen. Nova
aggregates and Placement aggregates share their UUIDs (the aggregates API
mirrors membership into Placement).
"""

from __future__ import annotations

from collections.abc import Callable

from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.placement import COMPUTE_STATUS_DISABLED
from nova.scheduler.utils import ResourceRequest

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

TENANT_METADATA_PREFIX = "filter_tenant_id"
_TRAIT_METADATA_PREFIX = "trait:"


def compute_status_filter(context, spec_obj, request: ResourceRequest) -> None:
    """Hosts of disabled compute services are never candidates: their
    computes put COMPUTE_STATUS_DISABLED on their providers."""
    request.forbidden_traits.add(COMPUTE_STATUS_DISABLED)


def map_az_to_placement_aggregate(context, spec_obj, request) -> None:
    """A requested availability zone becomes ``member_of`` its aggregates.

    The default zone holds every host in no zone aggregate, which Placement
    cannot express; it is left to AvailabilityZoneFilter.
    """
    zone = spec_obj.availability_zone if "availability_zone" in spec_obj else None
    if (
        not zone
        or not CONF.scheduler.query_placement_for_availability_zone
        or zone == CONF.default_availability_zone
    ):
        return
    aggregates = objects.AggregateList.get_by_metadata(
        context, key="availability_zone", value=zone
    )
    if aggregates:
        request.member_of.append(sorted(agg.uuid for agg in aggregates))


def require_tenant_aggregate(context, spec_obj, request) -> None:
    """A project named in aggregates' ``filter_tenant_id*`` metadata goes
    only to those aggregates (``limit_tenants_to_placement_aggregate``)."""
    if not CONF.scheduler.limit_tenants_to_placement_aggregate:
        return
    project = spec_obj.project_id
    aggregates = [
        agg
        for agg in objects.AggregateList.get_all(context)
        if any(
            key.startswith(TENANT_METADATA_PREFIX) and project in value.split(",")
            for key, value in (agg.metadata or {}).items()
        )
    ]
    if aggregates:
        request.member_of.append(sorted(agg.uuid for agg in aggregates))
    elif CONF.scheduler.placement_aggregate_required_for_tenants:
        raise exception.NoValidHost(
            reason=f"No aggregate is assigned to project {project} "
            "([scheduler] placement_aggregate_required_for_tenants)."
        )


def isolate_aggregates(context, spec_obj, request) -> None:
    """Keep the instance off aggregates whose ``trait:<T>=required``
    metadata asks for a trait the request does not require
    (``enable_isolated_aggregate_filtering``)."""
    if not CONF.scheduler.enable_isolated_aggregate_filtering:
        return
    wanted = set(request.required_traits)
    for group in request.groups.values():
        wanted |= group.required_traits
    isolated = sorted(
        agg.uuid
        for agg in objects.AggregateList.get_all(context)
        if any(
            key.startswith(_TRAIT_METADATA_PREFIX)
            and value == "required"
            and key[len(_TRAIT_METADATA_PREFIX) :] not in wanted
            for key, value in (agg.metadata or {}).items()
        )
    )
    if isolated:
        request.member_of.append("!in:" + ",".join(isolated))


def requested_destination_filter(context, spec_obj, request) -> None:
    """A requested host or node (2.74, or a targeted move) becomes
    ``in_tree`` of its compute node's provider; requested aggregates become
    ``member_of``."""
    destination = (
        spec_obj.requested_destination if "requested_destination" in spec_obj else None
    )
    if destination is None:
        return
    if destination.obj_attr_is_set("aggregates") and destination.aggregates:
        for item in destination.aggregates:
            # Each item is a comma-separated list of alternatives.
            request.member_of.append(sorted(item.split(",")))
    host = destination.host if "host" in destination else None
    node = destination.node if "node" in destination else None
    if host or node:
        request.in_tree = _compute_node_uuid(context, host, node)


def _compute_node_uuid(context, host: str | None, node: str | None) -> str | None:
    """The provider of ``host``'s node ``node`` (or its only node), or of
    node ``node`` wherever it is."""
    try:
        if not host:
            raise exception.HostMappingNotFound(name=node)
        cells = [objects.HostMapping.get_by_host(context, host).cell_mapping]
    except exception.HostMappingNotFound:
        # Not discovered yet: look in every cell.
        cells = [
            cell
            for cell in objects.CellMappingList.get_all(context)
            if not cell.is_cell0()
        ]
    nodes: list = []
    for cell in cells:
        with nova_context.target_cell(context, cell) as cctxt:
            try:
                nodes.extend(
                    objects.ComputeNodeList.get_all_by_host(cctxt, host)
                    if host
                    else objects.ComputeNodeList.get_all(cctxt)
                )
            except exception.ComputeHostNotFound:
                continue
    if node:
        nodes = [n for n in nodes if n.hypervisor_hostname == node]
    if not nodes:
        raise exception.NoValidHost(
            reason=f"No compute node {node or '(any)'} on host {host or '(any)'}."
        )
    # A host with several nodes (ironic) is left to the host filters.
    return nodes[0].uuid if len(nodes) == 1 else None


ALL_REQUEST_FILTERS: list[Callable] = [
    compute_status_filter,
    map_az_to_placement_aggregate,
    require_tenant_aggregate,
    isolate_aggregates,
    requested_destination_filter,
]


def process_request(context, spec_obj, request: ResourceRequest) -> None:
    """Apply every request filter to ``request``.

    :raises NoValidHost: when a filter rules out every host.
    """
    for request_filter in ALL_REQUEST_FILTERS:
        request_filter(context, spec_obj, request)
