"""Client side of nova-scheduler's RPC API (topic ``scheduler``).

Version history:
  1.0 - select_destinations
"""

from __future__ import annotations

import nova.conf
from nova import rpc

CONF = nova.conf.CONF


class SchedulerAPI(rpc.RPCAPI):
    TOPIC = "scheduler"
    VERSION = "1.0"
    UPGRADE_LEVEL = "scheduler"

    def select_destinations(
        self,
        context,
        spec_obj,
        instance_uuids: list[str],
        return_objects: bool = True,
        return_alternates: bool = True,
    ):
        """Hosts for the instances, with resources claimed in Placement.

        :returns: one list of Selection per instance: the chosen host first,
            then alternates (unclaimed) for rescheduling.
        :raises NoValidHost: with the reason no host fits.
        """
        # Scheduling many instances at once can outlast the usual timeout.
        client = self.prepare(context, timeout=CONF.long_rpc_timeout)
        return client.call(
            context,
            "select_destinations",
            spec_obj=spec_obj,
            instance_uuids=instance_uuids,
            return_objects=return_objects,
            return_alternates=return_alternates,
        )
