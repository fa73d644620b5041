"""Events other services report about this host's instances (a port
plugged, a volume extended, ...).

An event some flow of this host expects (a build waits for
``network-vif-plugged`` of its ports) is handed to it; any other is
recorded in the log.
"""

from __future__ import annotations

from oslo_log import log as logging

from nova.compute import instance_events
from nova.compute.flows import base
from nova.virt import driver as virt_driver

LOG = logging.getLogger(__name__)


class EventsFlow(base.Flow):
    """external_instance_event, and the events a driver reports in the
    network service's stead."""

    def external_instance_event(self, context, instances, events) -> None:
        for event in events:
            self._arrived(
                event.get("instance_uuid"),
                instance_events.event_key(event.get("name"), event.get("tag")),
                event.get("status") or instance_events.STATUS_COMPLETED,
            )

    def handle_driver_event(self, event: virt_driver.InstanceEvent) -> None:
        self._arrived(
            event.uuid, instance_events.event_key(event.name, event.tag), event.status
        )

    def _arrived(self, uuid: str, key: str, status: str) -> None:
        if self.compute.instance_events.pop(uuid, key, status):
            LOG.info("Event %s (%s) for instance %s arrived", key, status, uuid)
            return
        LOG.info(
            "Received event %s (status %s) for instance %s; nothing waits for it",
            key,
            status,
            uuid,
        )
