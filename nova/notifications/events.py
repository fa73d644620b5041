"""Notifications about things other than an instance's life: services,
flavors, key pairs, server groups, aggregates, instance locks. Each is one
call at the place the change is made; none ever raises."""

from __future__ import annotations

import nova.conf
from nova.notifications import notifier
from nova.notifications.payloads.flavor import FlavorPayload
from nova.notifications.payloads.keypair import KeypairPayload
from nova.notifications.payloads.service import ServiceStatusPayload

CONF = nova.conf.CONF

# Service fields whose change is news (not a heartbeat), as upstream.
SERVICE_STATUS_FIELDS = frozenset({"disabled", "disabled_reason", "forced_down"})


def _api_publisher() -> str:
    return f"nova-api:{CONF.host}"


def service(context, service, action: str) -> None:
    """``service.create``, ``service.update`` or ``service.delete``, as the
    service itself publishes it."""
    notifier.emit(
        context,
        f"{service.binary}:{service.host}",
        f"service.{action}",
        lambda: ServiceStatusPayload.from_service(service),
    )


def flavor(context, flavor, action: str) -> None:
    """``flavor.create``, ``flavor.update`` or ``flavor.delete``."""
    notifier.emit(
        context,
        _api_publisher(),
        f"flavor.{action}",
        lambda: FlavorPayload.from_flavor(flavor),
    )


def keypair(context, keypair, action: str, phase: str) -> None:
    """``keypair.<create|import|delete>.<start|end>``."""
    notifier.emit(
        context,
        _api_publisher(),
        f"keypair.{action}.{phase}",
        lambda: KeypairPayload.from_keypair(keypair),
    )
