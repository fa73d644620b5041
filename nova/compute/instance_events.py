"""Events a compute waits for: other services' word that something happened
to one of its instances (Neutron: a port is plugged).

A flow says which events it expects *before* it starts what causes them
(:meth:`InstanceEvents.prepare`), so an event arriving early is not lost;
the compute's events flow hands each arriving event to
:meth:`InstanceEvents.pop`; the flow then waits for the rest
(:meth:`Expected.wait`). Event keys are upstream's: ``<name>-<tag>``, e.g.
``network-vif-plugged-<port id>``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

STATUS_COMPLETED = "completed"


def event_key(name: str, tag: str | None) -> str:
    """``network-vif-plugged`` with tag ``<port id>`` is
    ``network-vif-plugged-<port id>``."""
    return f"{name}-{tag}" if tag else name


class _Waiter:
    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.status: str | None = None


class Expected:
    """The events one flow of one instance waits for."""

    def __init__(self, registry: InstanceEvents, uuid: str, keys: list[str]) -> None:
        self._registry = registry
        self._uuid = uuid
        self.waiters = {key: _Waiter() for key in keys}

    def wait(self, timeout: float) -> tuple[list[str], list[str]]:
        """Wait up to ``timeout`` seconds in all for every event.

        :returns: the keys of events that never came, and of those that
            came with another status than ``completed``.
        """
        deadline = time.monotonic() + timeout
        missing, failed = [], []
        try:
            for key, waiter in self.waiters.items():
                if not waiter.arrived.wait(max(0.0, deadline - time.monotonic())):
                    missing.append(key)
                elif waiter.status != STATUS_COMPLETED:
                    failed.append(key)
        finally:
            self._registry.forget(self._uuid, self.waiters)
        return missing, failed

    def cancel(self) -> None:
        """Stop expecting them (the flow failed before waiting)."""
        self._registry.forget(self._uuid, self.waiters)


class InstanceEvents:
    """Waiters by instance and event key; one registry per compute."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, dict[str, _Waiter]] = {}

    def prepare(self, instance_uuid: str, keys: Iterable[str]) -> Expected:
        expected = Expected(self, instance_uuid, list(dict.fromkeys(keys)))
        with self._lock:
            self._waiting.setdefault(instance_uuid, {}).update(expected.waiters)
        return expected

    def pop(self, instance_uuid: str, key: str, status: str) -> bool:
        """Hand an arrived event to its waiter; False if none expected it."""
        with self._lock:
            waiter = self._waiting.get(instance_uuid, {}).pop(key, None)
        if waiter is None:
            return False
        waiter.status = status
        waiter.arrived.set()
        return True

    def forget(self, instance_uuid: str, waiters: dict[str, _Waiter]) -> None:
        with self._lock:
            mine = self._waiting.get(instance_uuid, {})
            for key, waiter in waiters.items():
                if mine.get(key) is waiter:
                    del mine[key]
            if not mine:
                self._waiting.pop(instance_uuid, None)
