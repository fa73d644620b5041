"""External events: other services telling nova what happened to a server
(a port plugged, a volume extended, a power change), passed on to the
servers' hosts."""

from __future__ import annotations

from dataclasses import dataclass, field

from nova import context as nova_context
from nova import exception, objects
from nova.compute.api import base

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


class EventsAPI(base.FlowAPI):
    """``os-server-external-events`` below HTTP."""

    def external_instance_event(self, context, events: list[dict]) -> list[dict]:
        """Cast each acceptable event to its server's host, one message per
        host; every event back with its ``code`` (200, or 404 for a server
        nova does not know, 422 for one without a host, 400 for a bad power
        tag) and, when refused, ``status: failed``.

        :raises NotFound: no event was accepted.
        """
        instances: dict[str, object] = {}
        # (cell message queue, host) -> what that compute is told
        deliveries: dict[tuple[str, str], _Delivery] = {}
        answered = []
        for event in events:
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
            answered.append(event)
        if not deliveries:
            raise exception.NotFound("No instances found for any event")
        rpcapi = self._compute_rpcapi()
        for (_, host), delivery in deliveries.items():
            rpcapi.external_instance_event(
                delivery.cell_context,
                list(delivery.instances.values()),
                delivery.events,
                host=host,
            )
        return answered
