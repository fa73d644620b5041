"""Events other services report about this host's instances (a port
plugged, a volume extended, ...).

Nothing here waits for them yet (no network or volume service is
integrated), so each is recorded in the log; the flows that will wait for
them (a build for ``network-vif-plugged``) come with those services.
"""

from __future__ import annotations

from oslo_log import log as logging

from nova.compute.flows import base

LOG = logging.getLogger(__name__)


class EventsFlow(base.Flow):
    """external_instance_event."""

    def external_instance_event(self, context, instances, events) -> None:
        for event in events:
            LOG.info(
                "Received event %s (status %s, tag %s) for instance %s",
                event.get("name"),
                event.get("status"),
                event.get("tag"),
                event.get("instance_uuid"),
            )
