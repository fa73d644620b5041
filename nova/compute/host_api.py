"""Services, hosts and compute nodes of every cell, as the API acts on them.

Finding a service means asking every cell (the API database does not know
services); changing one is a write in its own cell.
"""

from __future__ import annotations

import logging
from typing import Any

import oslo_messaging

import placement_client.exception as placement_exc
from nova import context as nova_context
from nova import exception, objects, placement, scatter_gather, servicegroup
from nova.compute import rpcapi as compute_rpcapi
from nova.objects.service import (
    compute_host_availability_zones,
    set_availability_zone,
)

LOG = logging.getLogger(__name__)


def gather_from_cells(context, fn) -> list[tuple[Any, Any]]:
    """(cell, result) of every cell that answered; the others are logged."""
    answered = []
    for cell, result in scatter_gather.scatter_gather_all_cells(context, fn):
        if isinstance(result, BaseException):
            if not isinstance(result, exception.NotFound):
                LOG.warning("Cell %s did not answer: %s", cell.uuid, result)
            continue
        answered.append((cell, result))
    return answered


def find_service(context, service_id: str | int) -> Any:
    """The service with this uuid (a string) or database id (an int).

    :raises ServiceNotFound: no cell has it.
    :raises ServiceNotUnique: an id several cells have.
    """
    if isinstance(service_id, int):
        found = gather_from_cells(
            context, lambda c: objects.Service.get_by_id(c, service_id)
        )
    else:
        found = gather_from_cells(
            context, lambda c: objects.Service.get_by_uuid(c, service_id)
        )
    if not found:
        raise exception.ServiceNotFound(service_id=service_id)
    if len(found) > 1:
        raise exception.ServiceNotUnique()
    service = found[0][1]
    set_availability_zone(service, compute_host_availability_zones(context))
    return service


def find_service_by_host_and_binary(context, host: str, binary: str) -> Any:
    """:raises ServiceNotFound: no cell has that service."""
    found = [
        service
        for _, service in gather_from_cells(
            context, lambda c: objects.Service.get_by_host_and_binary(c, host, binary)
        )
        if service is not None
    ]
    if not found:
        raise exception.ServiceNotFound(service_id=f"{binary} on {host}")
    return found[0]


def update_service(service, **changes) -> Any:
    """Write ``changes`` (disabled, disabled_reason, forced_down) in its cell.

    A compute whose ``disabled`` flag changed is told at once, so that it
    sets or removes ``COMPUTE_STATUS_DISABLED`` on its providers before the
    next scheduling request.
    """
    toggled = "disabled" in changes and changes["disabled"] != service.disabled
    for name, value in changes.items():
        setattr(service, name, value)
    service.save()
    if toggled and service.binary == "nova-compute":
        _sync_compute_status(service)
    return service


def _sync_compute_status(service) -> None:
    """Ask the compute to mirror its service's enabled flag in Placement.

    Best effort, as upstream: a compute that is down or does not answer
    settles the trait itself from its service record when it starts and on
    every resource update, so the API request still succeeds.
    """
    from nova import servicegroup
    from nova.compute import rpcapi as compute_rpcapi

    if not servicegroup.service_is_up(service):
        LOG.info(
            "Compute service on host %s is down; its COMPUTE_STATUS_DISABLED "
            "trait will be synced when it starts",
            service.host,
        )
        return
    try:
        compute_rpcapi.ComputeAPI().set_host_enabled(
            service._context, service.host, not service.disabled
        )
    except Exception as exc:  # a timeout or a broker error: never the API's
        LOG.warning(
            "Failed to update the COMPUTE_STATUS_DISABLED trait of host %s "
            "(%s); its next resource update will",
            service.host,
            exc,
        )


def _forget_host_in_api_database(context, host: str) -> None:
    """Take the host out of its aggregates and drop its host mapping."""
    for aggregate in objects.AggregateList.get_by_host(context, host):
        aggregate.delete_host(host)
    try:
        objects.HostMapping.get_by_host(context, host).destroy()
    except exception.HostMappingNotFound:
        pass  # never discovered


def delete_service(context, service) -> None:
    """Delete a service; a compute also loses its nodes, their resource
    providers in Placement, its aggregate memberships and host mapping.

    :raises ServiceHostsInstances: a compute with instances on it.
    :raises ServiceHasInProgressMigrations: a compute a migration uses.
    :raises ServiceResourceProviderInUse: Placement refused to delete a
        node's provider (allocations still on it).
    """
    if service.binary == "nova-compute":
        cell_context = service._context
        if objects.InstanceList.get_by_host(cell_context, service.host):
            raise exception.ServiceHostsInstances()
        if objects.MigrationList.get_count_in_progress_by_host(
            cell_context, service.host
        ):
            raise exception.ServiceHasInProgressMigrations()
        try:
            nodes = objects.ComputeNodeList.get_all_by_host(cell_context, service.host)
        except exception.ComputeHostNotFound:
            nodes = []  # it never reported a node
        for node in nodes:
            try:
                placement.client().delete_provider(node.uuid, context=context)
            except placement_exc.ResourceProviderInUse as exc:
                raise exception.ServiceResourceProviderInUse(
                    node=node.hypervisor_hostname, reason=exc
                ) from exc
        _forget_host_in_api_database(context, service.host)
    service.destroy()


def compute_nodes(context) -> list[tuple[Any, Any]]:
    """(compute node, its nova-compute service) of every cell, in the
    cells' order then by node id. A node whose service is gone is left out."""

    def nodes_and_services(cctxt):
        nodes = objects.ComputeNodeList.get_all(cctxt)
        services = {
            service.host: service
            for service in objects.ServiceList.get_by_binary(
                cctxt, "nova-compute", include_disabled=True
            )
        }
        return [(node, services[node.host]) for node in nodes if node.host in services]

    return [
        pair
        for _, pairs in gather_from_cells(context, nodes_and_services)
        for pair in pairs
    ]


def instances_on_host(node) -> list:
    """The instances of the node's host (in the node's cell)."""
    return list(objects.InstanceList.get_by_host(node._context, node.host))


def migrations(context, list_cell) -> list:
    """``list_cell(cell_context)`` of every cell, merged newest first."""
    found = [m for _, result in gather_from_cells(context, list_cell) for m in result]
    return sorted(found, key=lambda m: (m.created_at, m.id), reverse=True)


def get_host_uptime(node, service) -> str:
    """The ``uptime`` line of the node's host, asked of its nova-compute.

    :raises ComputeServiceUnavailable: the service is down or does not answer.
    """
    if not servicegroup.service_is_up(service):
        raise exception.ComputeServiceUnavailable(host=node.host)
    try:
        return compute_rpcapi.ComputeAPI().get_host_uptime(node._context, node.host)
    except oslo_messaging.MessagingTimeout as exc:
        raise exception.ComputeServiceUnavailable(host=node.host) from exc


# -- acting on a compute host (os-hosts) ----------------------------------------


def _compute_host_call(context, host: str, must_be_up: bool, call) -> Any:
    """``call(cell_context)`` in the host's cell, once its nova-compute is
    known (and up, when ``must_be_up``).

    :raises HostMappingNotFound: the host was never discovered.
    :raises HostNotFound: its cell has no nova-compute on it.
    :raises ComputeServiceUnavailable: it is down and must be up.
    """
    mapping = objects.HostMapping.get_by_host(context, host)
    with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
        service = objects.Service.get_by_host_and_binary(cctxt, host, "nova-compute")
        if service is None:
            raise exception.HostNotFound(host=host)
        if must_be_up and not servicegroup.service_is_up(service):
            raise exception.ComputeServiceUnavailable(host=host)
        return call(cctxt)


def set_host_enabled(context, host: str, enabled: bool) -> str:
    """``"enabled"``/``"disabled"`` as the host's driver answers."""
    return _compute_host_call(
        context,
        host,
        True,
        lambda cctxt: compute_rpcapi.ComputeAPI().set_host_enabled(
            cctxt, host, enabled
        ),
    )


def host_maintenance_mode(context, host: str, mode: bool) -> str:
    """``"on_maintenance"``/``"off_maintenance"`` as the driver answers."""
    return _compute_host_call(
        context,
        host,
        True,
        lambda cctxt: compute_rpcapi.ComputeAPI().host_maintenance_mode(
            cctxt, host, mode
        ),
    )


def host_power_action(context, host: str, action: str) -> str:
    return _compute_host_call(
        context,
        host,
        False,
        lambda cctxt: compute_rpcapi.ComputeAPI().host_power_action(
            cctxt, host, action
        ),
    )


def host_node_and_instances(context, host: str) -> tuple[Any, list]:
    """The host's first compute node and its instances, from its cell.

    :raises HostMappingNotFound: the host was never discovered.
    :raises ComputeHostNotFound: it has no compute node.
    """
    mapping = objects.HostMapping.get_by_host(context, host)
    with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
        nodes = objects.ComputeNodeList.get_all_by_host(cctxt, host)
        node = sorted(nodes, key=lambda n: n.id)[0]
        return node, list(objects.InstanceList.get_by_host(cctxt, host))
