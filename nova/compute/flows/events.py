"""Events other services report about this host's instances (a port
plugged, a volume extended, ...).

An event some flow of this host expects (a build waits for
``network-vif-plugged`` of its ports) is handed to it. Neutron's
``network-changed`` and ``network-vif-deleted`` (a port's addresses
changed, a port went) refresh the instance's network info cache from the
network service, as a periodic heal does for one instance after another
(``heal_instance_info_cache_interval``), in case an event got lost. Any
other event is recorded in the log.
"""

from __future__ import annotations

import collections

from oslo_log import log as logging

from nova import exception, objects
from nova.compute import instance_events
from nova.compute.flows import base
from nova.virt import driver as virt_driver

LOG = logging.getLogger(__name__)

# Events after which the network info cache no longer tells the truth.
REFRESHING_EVENTS = ("network-changed", "network-vif-deleted")


class EventsFlow(base.Flow):
    """external_instance_event, the events a driver reports in the network
    service's stead, and the heal of network info caches."""

    def __init__(self, compute: base.ComputeHost) -> None:
        super().__init__(compute)
        # Instances still to heal in this round, one per period.
        self._to_heal: collections.deque[str] = collections.deque()

    def heal_instance_info_cache(self, context) -> None:
        """Refresh the network info of the next instance of this host
        (a new round once every instance had its turn); instances with a
        task running are left to it."""
        instances = {i.uuid: i for i in self.instances_of_host(context)}
        if not self._to_heal:
            self._to_heal.extend(instances)
        while self._to_heal:
            instance = instances.get(self._to_heal.popleft())
            if instance is not None and instance.task_state is None:
                self.refresh_network_info(context, instance)
                return

    def external_instance_event(self, context, instances, events) -> None:
        stale = []
        for event in events:
            uuid = event.get("instance_uuid")
            expected = self._arrived(
                uuid,
                instance_events.event_key(event.get("name"), event.get("tag")),
                event.get("status") or instance_events.STATUS_COMPLETED,
            )
            if not expected and event.get("name") in REFRESHING_EVENTS:
                stale.append(uuid)
        for instance in instances:
            if instance.uuid in stale:
                self.refresh_network_info(context, instance)

    def refresh_network_info(self, context, instance) -> None:
        """Keep in the instance's info cache what the network service has.

        Under the instance's lock, after any build in progress: the cache
        it saved (which ports the user brought, to keep on delete) is read
        afresh, not taken from the event's copy of the instance.
        """
        with self.compute.instance_lock(instance.uuid):
            try:
                cache = objects.InstanceInfoCache.get_by_instance_uuid(
                    context, instance.uuid
                )
                instance.info_cache = cache
                network_info = self.compute.network_api.get_instance_nw_info(
                    context, instance
                )
                if network_info == cache.network_info:
                    return
                cache.network_info = network_info
                cache.save()
            except exception.InstanceNotFound:
                return
            except exception.NovaException as exc:
                LOG.warning(
                    "Could not refresh the network info of %s: %s", instance.uuid, exc
                )
                return
        LOG.info("Refreshed the network info of %s", instance.uuid)

    def handle_driver_event(self, event: virt_driver.InstanceEvent) -> None:
        self._arrived(
            event.uuid, instance_events.event_key(event.name, event.tag), event.status
        )

    def _arrived(self, uuid: str, key: str, status: str) -> bool:
        """Hand the event to what waits for it; False if nothing does."""
        if self.compute.instance_events.pop(uuid, key, status):
            LOG.info("Event %s (%s) for instance %s arrived", key, status, uuid)
            return True
        LOG.info(
            "Received event %s (status %s) for instance %s; nothing waits for it",
            key,
            status,
            uuid,
        )
        return False
