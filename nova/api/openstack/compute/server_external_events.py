"""``/os-server-external-events``: other services telling nova what happened
to a server (a port plugged, a volume extended, ...).

Each event is answered on its own: 200 when accepted, 404 for a server
nova does not know, 422 for one without a host to tell. The response is
200 when all were accepted, 207 when some were not, and 404 when none were.
Accepted events are cast to the servers' computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nova import context as nova_context
from nova import exception, objects, policy
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import server_external_events as schemas
from nova.api.openstack.compute.servers import compute_api
from nova.api.openstack.request import Request, json_response
from nova.policies import server_external_events as events_policies

_POWER_STATES = ("POWER_ON", "POWER_OFF")


def _find_instance(context, instance_uuid: str):
    """The instance and its cell's context, or None (never scheduled to a
    cell, or gone)."""
    try:
        mapping = objects.InstanceMapping.get_by_instance_uuid(context, instance_uuid)
    except exception.InstanceMappingNotFound:
        return None
    if mapping.cell_mapping is None:
        return None
    with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
        try:
            return objects.Instance.get_by_uuid(cctxt, instance_uuid)
        except exception.InstanceNotFound:
            return None


def _refusal(event: dict, instance) -> int | None:
    """The code that refuses ``event`` for ``instance``, None to accept."""
    if instance is None:
        return 404
    if not instance.host:
        return 422
    if event["name"] == "power-update" and event.get("tag") not in _POWER_STATES:
        return 400
    return None


@dataclass
class _Delivery:
    """What one compute host is told: its instances and their events."""

    cell_context: object
    instances: dict = field(default_factory=dict)
    events: list = field(default_factory=list)


@validation.body(schemas.create, "2.1", "2.50")
@validation.body(schemas.create_v251, "2.51", "2.75")
@validation.body(schemas.create_v276, "2.76", "2.81")
@validation.body(schemas.create_v282, "2.82", "2.92")
@validation.body(schemas.create_v293, "2.93")
def create(req: Request):
    context = req.nova_context
    policy.authorize(context, events_policies.POLICY_ROOT % "create", target={})
    instances: dict[str, object] = {}
    # (cell message queue, host) -> what that compute is told
    deliveries: dict[tuple[str, str], _Delivery] = {}
    response_events = []
    status = 200
    for event in req.json_body()["events"]:
        event = {**event, "status": event.get("status", "completed")}
        uuid = event["server_uuid"]
        if uuid not in instances:
            instances[uuid] = _find_instance(context, uuid)
        instance = instances[uuid]
        code = _refusal(event, instance)
        if code is None:
            event["code"] = 200
            cell_context = instance._context
            delivery = deliveries.setdefault(
                (cell_context.transport_url or "", instance.host),
                _Delivery(cell_context),
            )
            delivery.instances[uuid] = instance
            delivery.events.append(
                {
                    "name": event["name"],
                    "instance_uuid": uuid,
                    "status": event["status"],
                    "tag": event.get("tag"),
                }
            )
        else:
            event.update(status="failed", code=code)
            status = 207
        response_events.append(event)
    if not deliveries:
        raise exception.NotFound("No instances found for any event")
    rpcapi = compute_api()._compute_rpcapi()
    for (_, host), delivery in deliveries.items():
        rpcapi.external_instance_event(
            delivery.cell_context,
            list(delivery.instances.values()),
            delivery.events,
            host=host,
        )
    return json_response({"events": response_events}, status=status)
