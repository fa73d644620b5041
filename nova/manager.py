"""Base class of the service managers: the RPC endpoints of a daemon.

A manager holds a service's logic. Its public methods are what the
service's RPC API calls; its periodic tasks are run by the service runner
(:mod:`nova.service`) on their own thread.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import oslo_messaging


@dataclasses.dataclass(frozen=True)
class PeriodicTask:
    """A method to run every ``spacing`` seconds (never when <= 0)."""

    name: str
    function: Callable[[Any], None]
    spacing: float
    run_immediately: bool = False


class Manager:
    """RPC endpoint and periodic tasks of one service."""

    # Subclasses set the RPC API version they serve.
    target = oslo_messaging.Target(version="1.0")

    def __init__(self, host: str, service_name: str) -> None:
        self.host = host
        self.service_name = service_name

    def additional_endpoints(self) -> list[Any]:
        """Other RPC endpoints the service serves next to this one."""
        return []

    def init_host(self, service_ref) -> None:
        """Prepare the host once the service record exists, before RPC
        messages are consumed."""

    def post_start_hook(self) -> None:
        """Run once RPC messages are being consumed."""

    def cleanup_host(self) -> None:
        """Release what init_host acquired, at shutdown."""

    def reset(self) -> None:
        """Drop cached state after a configuration reload (SIGHUP)."""

    def periodic_tasks(self) -> list[PeriodicTask]:
        """The periodic tasks to run, read from the current configuration."""
        return []
