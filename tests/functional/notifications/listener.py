"""An oslo.messaging notification listener that collects what arrives on
a topic of one or more vhosts, as Ceilometer or Watcher would consume it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import oslo_messaging

import nova.conf

CONF = nova.conf.CONF


class Collector:
    """Endpoint of every priority: keeps (priority, publisher, event, payload)."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self._changed = threading.Condition()

    def _keep(self, priority, publisher_id, event_type, payload) -> None:
        with self._changed:
            self.received.append(
                {
                    "priority": priority,
                    "publisher_id": publisher_id,
                    "event_type": event_type,
                    "payload": payload,
                }
            )
            self._changed.notify_all()

    def info(self, ctxt, publisher_id, event_type, payload, metadata):
        self._keep("INFO", publisher_id, event_type, payload)

    def warn(self, ctxt, publisher_id, event_type, payload, metadata):
        self._keep("WARN", publisher_id, event_type, payload)

    def error(self, ctxt, publisher_id, event_type, payload, metadata):
        self._keep("ERROR", publisher_id, event_type, payload)

    def about(self, uuid: str | None = None) -> list[dict]:
        """Notifications received so far (about instance ``uuid`` only)."""
        with self._changed:
            return [
                n for n in self.received if uuid is None or _instance_uuid(n) == uuid
            ]

    def events(self, uuid: str | None = None) -> list[str]:
        """Event types received so far (about instance ``uuid`` only)."""
        return [n["event_type"] for n in self.about(uuid)]

    def wait_for(
        self, event_type: str, uuid: str, timeout: float = 60, key: str = "uuid"
    ) -> dict:
        """The first ``event_type`` notification about ``uuid`` (the
        payload's ``key``: ``instance_uuid`` in a conductor's or the
        scheduler's)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for n in self.received:
                    if n["event_type"] == event_type and _instance_uuid(n, key) == uuid:
                        return n
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"no {event_type} for {uuid} within {timeout}s; "
                        f"got {self.events(uuid)}"
                    )
                self._changed.wait(left)


def _instance_uuid(notification: dict, key: str = "uuid") -> str | None:
    payload = notification["payload"]
    if "nova_object.data" in payload:
        return payload["nova_object.data"].get(key)
    return payload.get("instance_id")


@contextlib.contextmanager
def listening(urls: list[str], topic: str) -> Iterator[Collector]:
    """Collect the notifications of ``topic`` on every vhost of ``urls``;
    its queues exist once this is entered."""
    collector = Collector()
    listeners = []
    transports = []
    try:
        for url in urls:
            transport = oslo_messaging.get_notification_transport(CONF, url=url)
            transports.append(transport)
            listener = oslo_messaging.get_notification_listener(
                transport,
                [oslo_messaging.Target(topic=topic)],
                [collector],
                executor="threading",
            )
            listener.start()
            listeners.append(listener)
        yield collector
    finally:
        for listener in listeners:
            listener.stop()
        for listener in listeners:
            listener.wait()
        for transport in transports:
            transport.cleanup()
