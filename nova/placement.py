"""The Placement client of this process, built once from ``[placement]``."""

from __future__ import annotations

import functools

import nova.conf
import placement_client

CONF = nova.conf.CONF


@functools.cache
def client() -> placement_client.PlacementClient:
    """The shared, thread-safe Placement client (see ``placement_client``)."""
    return placement_client.from_conf(CONF, "placement")


def reset() -> None:
    """Forget the client, so the next call reads ``[placement]`` again."""
    client.cache_clear()
