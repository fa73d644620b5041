"""Placement as nova uses it: the client of this process, built once from
``[placement]``, and the trait names nova itself puts on providers."""

from __future__ import annotations

import functools

import nova.conf
import placement_client

CONF = nova.conf.CONF

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
