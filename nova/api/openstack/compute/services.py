"""``/os-services``: the nova services of every cell, up or down."""

from __future__ import annotations

from nova import objects, policy
from nova.api.openstack import validation
from nova.api.openstack.compute import servers
from nova.api.openstack.compute.schemas import services as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute import instance_list
from nova.policies import services as services_policies

# The API services of upstream's eventlet era registered themselves; they
# are not shown.
_HIDDEN_BINARIES = ("nova-osapi_compute", "nova-metadata")


def _updated_at(service) -> str | None:
    """The service's last sign of life (heartbeat, else last update)."""
    for name in ("last_seen_up", "updated_at", "created_at"):
        value = getattr(service, name) if name in service else None
        if value is not None:
            return value.replace(tzinfo=None).strftime("%Y-%m-%dT%H:%M:%S.%f")
    return None


def _view(req: Request, service) -> dict:
    body = {
        "id": service.uuid if req.is_supported("2.53") else service.id,
        "binary": service.binary,
        "host": service.host,
        "zone": service.availability_zone,
        "status": "disabled" if service.disabled else "enabled",
        "state": "up" if servers.compute_api().service_is_up(service) else "down",
        "updated_at": _updated_at(service),
        "disabled_reason": service.disabled_reason,
    }
    if req.is_supported("2.11"):
        body["forced_down"] = service.forced_down
    return body


@validation.query(schemas.index_query, "2.1", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def index(req: Request):
    context = req.nova_context
    policy.authorize(context, services_policies.BASE_POLICY_NAME % "list", target={})
    found = []
    for _, result in instance_list.scatter_gather_all_cells(
        context, lambda cctxt: objects.ServiceList.get_all(cctxt, set_zones=True)
    ):
        # A cell that cannot answer has no services to show.
        if not isinstance(result, BaseException):
            found.extend(result)
    host, binary = req.GET.get("host"), req.GET.get("binary")
    services = [
        _view(req, service)
        for service in found
        if service.binary not in _HIDDEN_BINARIES
        and (host is None or service.host == host)
        and (binary is None or service.binary == binary)
    ]
    return json_response({"services": services})
