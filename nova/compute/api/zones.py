"""Availability zones as the compute API sees them: the zones of the
enabled compute services of every cell."""

from __future__ import annotations

import logging
from typing import Any

import nova.conf
from nova import exception, objects, scatter_gather, servicegroup
from nova.objects.service import compute_host_availability_zones

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def compute_services(context) -> list[tuple[Any, Any]]:
    """(cell mapping, service) of every nova-compute in every cell, with
    its availability zone set."""
    results = scatter_gather.scatter_gather_all_cells(
        context,
        lambda cctxt: objects.ServiceList.get_all(cctxt, set_zones=True),
    )
    services = []
    for cell, result in results:
        if isinstance(result, BaseException):
            LOG.warning("Cell %s did not list its services: %s", cell.uuid, result)
            continue
        services.extend((cell, s) for s in result if s.binary == "nova-compute")
    return services


def available_zones(context) -> set[str]:
    """Zones with at least one enabled compute service."""
    return {
        service.availability_zone
        for _, service in compute_services(context)
        if not service.disabled and service.availability_zone
    }


def check_available(context, zone: str) -> None:
    """:raises Invalid: (400) no enabled compute service is in ``zone``."""
    if zone not in available_zones(context):
        raise exception.Invalid("The requested availability zone is not available")


def host_zones(context) -> dict[str, str]:
    """host -> availability zone, for hosts in zoned aggregates (the others
    are in the default zone)."""
    return compute_host_availability_zones(context)


def check_host_in_zone(context, host: str, zone: str) -> None:
    """:raises Invalid: (400) ``host`` is not in the zone ``zone``."""
    host_zone = host_zones(context).get(host, CONF.default_availability_zone)
    if zone not in host_zone.split(","):
        raise exception.Invalid(f"Host '{host}' is not in availability zone '{zone}'.")


def service_is_up(service) -> bool:
    return servicegroup.service_is_up(service)
