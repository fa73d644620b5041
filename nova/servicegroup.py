"""Whether a service is up: has it sent a heartbeat recently enough?

Services record heartbeats in their service row (``report_count`` bumps,
``last_seen_up`` stamped by the database side, see ``nova.objects.Service``).
The API (``/os-services``) and the scheduler (ComputeFilter) decide up or
down from that row with :func:`service_is_up`.
"""

from __future__ import annotations

import datetime

import nova.conf

CONF = nova.conf.CONF


def last_heartbeat(service) -> datetime.datetime | None:
    """When the service was last seen alive (aware, UTC), or None."""
    for name in ("last_seen_up", "updated_at", "created_at"):
        value = getattr(service, name, None) if name in service else None
        if value is not None:
            if value.tzinfo is None:
                value = value.replace(tzinfo=datetime.UTC)
            return value
    return None


def service_is_up(service, now: datetime.datetime | None = None) -> bool:
    """True unless the service is forced down or silent for longer than
    ``[DEFAULT] service_down_time``."""
    if getattr(service, "forced_down", False):
        return False
    last = last_heartbeat(service)
    if last is None:
        return False
    now = now or datetime.datetime.now(datetime.UTC)
    # abs(): a clock behind the database's must not make a live service
    # look down, nor one far ahead look up forever.
    return abs((now - last).total_seconds()) <= CONF.service_down_time
