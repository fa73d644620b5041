"""``/os-availability-zone``: the zones servers can be created in."""

from __future__ import annotations

import nova.conf
from nova import policy
from nova.api.openstack.compute import servers
from nova.api.openstack.request import Request, json_response
from nova.policies import availability_zone as az_policies

CONF = nova.conf.CONF


def index(req: Request):
    """Zones with an enabled compute service are available; zones whose
    computes are all disabled are listed as unavailable."""
    context = req.nova_context
    policy.authorize(context, az_policies.BASE_POLICY_NAME % "list")
    computes = servers.compute_api().compute_services(context.elevated())
    available = {s.availability_zone for _, s in computes if not s.disabled}
    unavailable = {s.availability_zone for _, s in computes} - available
    zones = [
        {"zoneName": zone, "zoneState": {"available": is_available}, "hosts": None}
        for is_available, names in ((True, available), (False, unavailable))
        for zone in sorted(names)
        if zone and zone != CONF.internal_service_availability_zone
    ]
    return json_response({"availabilityZoneInfo": zones})
