"""``/os-availability-zone``: the zones servers can be created in."""

from __future__ import annotations

import nova.conf
from nova import objects, policy, scatter_gather
from nova.api.openstack.compute import common
from nova.api.openstack.request import Request, json_response
from nova.compute.api import zones as compute_zones
from nova.policies import availability_zone as az_policies

CONF = nova.conf.CONF


def index(req: Request):
    """Zones with an enabled compute service are available; zones whose
    computes are all disabled are listed as unavailable."""
    context = req.nova_context
    policy.authorize(context, az_policies.BASE_POLICY_NAME % "list")
    computes = compute_zones.compute_services(context.elevated())
    available = {s.availability_zone for _, s in computes if not s.disabled}
    unavailable = {s.availability_zone for _, s in computes} - available
    zones = [
        {"zoneName": zone, "zoneState": {"available": is_available}, "hosts": None}
        for is_available, names in ((True, available), (False, unavailable))
        for zone in sorted(names)
        if zone and zone != CONF.internal_service_availability_zone
    ]
    return json_response({"availabilityZoneInfo": zones})


# API services of upstream's eventlet era registered themselves; they are
# not part of any zone.
_API_BINARIES = ("nova-osapi_compute", "nova-metadata")


def _all_services(context) -> list:
    services = []
    for _, result in scatter_gather.scatter_gather_all_cells(
        context, lambda cctxt: objects.ServiceList.get_all(cctxt, set_zones=True)
    ):
        # A cell that cannot answer has no services to show.
        if not isinstance(result, BaseException):
            services.extend(s for s in result if s.binary not in _API_BINARIES)
    return services


def detail(req: Request):
    """Every zone with its hosts and their services (the internal zone of
    the control services included); zones whose services are all disabled
    are unavailable and list no hosts."""
    context = req.nova_context
    policy.authorize(context, az_policies.BASE_POLICY_NAME % "detail", target={})
    services = _all_services(context)
    enabled = [s for s in services if not s.disabled]
    available = sorted({s.availability_zone for s in enabled})
    hosts: dict[str, dict[str, dict]] = {zone: {} for zone in available}
    for service in enabled:
        hosts[service.availability_zone].setdefault(service.host, {})[
            service.binary
        ] = {
            "available": compute_zones.service_is_up(service),
            "active": True,
            "updated_at": common.datetime_str(service.updated_at),
        }
    zones = [
        {"zoneName": zone, "zoneState": {"available": True}, "hosts": hosts[zone]}
        for zone in available
    ]
    unavailable = {s.availability_zone for s in services} - set(available)
    zones += [
        {"zoneName": zone, "zoneState": {"available": False}, "hosts": None}
        for zone in sorted(unavailable)
    ]
    return json_response({"availabilityZoneInfo": zones})
