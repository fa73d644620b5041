"""The oslo.messaging notifiers nova sends with, and the rule that a
notification never fails the operation that sends it.

Notifications go over ``[oslo_messaging_notifications] transport_url``,
else over this service's ``transport_url`` (a compute's cell queue, the
API-level queue for API services), as upstream does. The driver comes from
``[oslo_messaging_notifications] driver``; without one nothing is sent.
"""

from __future__ import annotations

import threading
from typing import Any

import oslo_messaging
from oslo_log import log as logging

import nova.conf

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

VERSIONED = "versioned"
UNVERSIONED = "unversioned"

_lock = threading.Lock()
_transport: oslo_messaging.Transport | None = None
_notifiers: dict[tuple[str, str], oslo_messaging.Notifier] = {}


class ContextSerializer(oslo_messaging.NoOpSerializer):
    """Payloads are primitives already; the request context travels as
    the dict RPC sends."""

    def serialize_context(self, context) -> dict[str, Any]:
        return {} if context is None else context.to_dict()


def enabled(kind: str) -> bool:
    """Whether notifications of ``kind`` are wanted and have a driver to
    go through (payloads are not even built otherwise)."""
    if CONF.notifications.notification_format not in (kind, "both"):
        return False
    _get_transport()  # registers the [oslo_messaging_notifications] options
    drivers = CONF.oslo_messaging_notifications.driver
    return any(driver != "noop" for driver in drivers)


def _get_transport() -> oslo_messaging.Transport:
    global _transport
    with _lock:
        if _transport is None:
            _transport = oslo_messaging.get_notification_transport(CONF)
        return _transport


def get_notifier(kind: str, publisher_id: str) -> oslo_messaging.Notifier:
    """The (cached) notifier of ``kind`` (versioned or unversioned)
    publishing as ``publisher_id``."""
    transport = _get_transport()
    with _lock:
        notifier = _notifiers.get((kind, publisher_id))
        if notifier is None:
            kwargs: dict[str, Any] = {}
            if kind == VERSIONED:
                kwargs["topics"] = CONF.notifications.versioned_notifications_topics
            notifier = oslo_messaging.Notifier(
                transport,
                publisher_id=publisher_id,
                serializer=ContextSerializer(),
                **kwargs,
            )
            _notifiers[(kind, publisher_id)] = notifier
        return notifier


def send(
    kind: str,
    context,
    publisher_id: str,
    event_type: str,
    payload: dict[str, Any],
    priority: str | None = None,
) -> None:
    """Send one notification; a failure is logged once and swallowed."""
    try:
        notifier = get_notifier(kind, publisher_id)
        method = (priority or CONF.notifications.default_level).lower()
        if method == "warn":
            method = "warning"
        getattr(notifier, method)(context, event_type, payload)
    except Exception:  # a lost notification must not fail the operation
        LOG.exception("Could not send notification %s", event_type)


def emit(
    context,
    publisher_id: str,
    event_type: str,
    versioned=None,
    legacy=None,
    priority: str | None = None,
    legacy_event_type: str | None = None,
) -> None:
    """Send ``event_type`` in the formats ``notification_format`` asks:
    ``versioned()`` builds the versioned payload object, ``legacy()`` the
    dict of the unversioned ``compute.<legacy_event_type>`` (by default
    ``event_type``; ``legacy`` None: there is no legacy form). Building a
    payload may fail like sending it: either is logged once and
    swallowed."""
    try:
        if versioned is not None and enabled(VERSIONED):
            payload = versioned().to_primitive()
            send(VERSIONED, context, publisher_id, event_type, payload, priority)
        if legacy is not None and enabled(UNVERSIONED):
            payload = legacy()
            send(
                UNVERSIONED,
                context,
                publisher_id,
                f"compute.{legacy_event_type or event_type}",
                payload,
                priority,
            )
    except Exception:  # a lost notification must not fail the operation
        LOG.exception("Could not send notification %s", event_type)


def cleanup() -> None:
    """Forget the notifiers and close their transport (service exit, tests)."""
    global _transport
    with _lock:
        transport, _transport = _transport, None
        _notifiers.clear()
    if transport is not None:
        transport.cleanup()
