"""Placement as nova uses it: the client of this process, built once from
``[placement]``, and the trait names nova itself puts on providers."""

from __future__ import annotations

import functools

from oslo_log import log as logging

import nova.conf
import placement_client

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# The os-traits trait a compute puts on its providers while its service is
# disabled; the scheduler forbids it, so no new instance lands there.
COMPUTE_STATUS_DISABLED = "COMPUTE_STATUS_DISABLED"


@functools.cache
def client() -> placement_client.PlacementClient:
    """The shared, thread-safe Placement client (see ``placement_client``)."""
    return placement_client.from_conf(CONF, "placement")


def reset() -> None:
    """Forget the client, so the next call reads ``[placement]`` again."""
    client.cache_clear()


def remove_provider_from_allocations(context, consumer_uuid: str, rp_uuid: str):
    """Give back what ``consumer_uuid`` holds on one provider only (a
    move's source or destination), logging a failure: what is left is for
    ``nova-manage placement audit``."""
    try:
        client().remove_provider_from_consumer(consumer_uuid, rp_uuid, context=context)
    except Exception:  # left for `nova-manage placement audit`
        LOG.exception(
            "Could not remove the allocations of %s on %s", consumer_uuid, rp_uuid
        )
