"""The attempts of one build, carried along its reschedules.

A build that fails on its host is rescheduled to the next alternate the
scheduler chose (``host_list``), without asking the scheduler again. The
hosts tried and why each failed travel in ``filter_properties["retry"]``
as upstream keeps them, so that the fault of a build that runs out of
alternates names every attempt.
"""

from __future__ import annotations

from typing import Any

import nova.conf
from nova import exception

CONF = nova.conf.CONF


def record_attempt(
    filter_properties: dict[str, Any], host: str, node: str | None, reason: str
) -> dict[str, Any]:
    """Add a failed attempt on ``host``; returns the retry record."""
    retry = filter_properties.setdefault(
        "retry", {"num_attempts": 0, "hosts": [], "exc_reasons": []}
    )
    retry["num_attempts"] += 1
    retry["hosts"].append([host, node])
    retry["exc_reasons"].append(reason)
    return retry


def attempts_left(filter_properties: dict[str, Any]) -> bool:
    """Whether ``[scheduler] max_attempts`` allows one more try."""
    retry = filter_properties.get("retry") or {}
    return retry.get("num_attempts", 0) < CONF.scheduler.max_attempts


def exhausted(instance_uuid: str, filter_properties: dict[str, Any]):
    """The error of a build that has no host left to try."""
    retry = filter_properties.get("retry") or {}
    tried = "; ".join(
        f"{host}: {reason}"
        for (host, _node), reason in zip(
            retry.get("hosts", []), retry.get("exc_reasons", []), strict=False
        )
    )
    return exception.MaxRetriesExceeded(
        reason=f"Exhausted all hosts available for retrying build failures for "
        f"instance {instance_uuid} after {retry.get('num_attempts', 0)} "
        f"attempt(s): {tried}."
    )
