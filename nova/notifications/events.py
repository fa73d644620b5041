"""Notifications about things other than an instance's life: services,
flavors, key pairs, server groups, aggregates, scheduling. Each is one
call at the place the change is made; none ever raises."""

from __future__ import annotations

import contextlib

import nova.conf
from nova.notifications import notifier
from nova.notifications.payloads.aggregate import AggregatePayload
from nova.notifications.payloads.compute_task import ComputeTaskPayload
from nova.notifications.payloads.exception import ExceptionPayload
from nova.notifications.payloads.flavor import FlavorPayload
from nova.notifications.payloads.keypair import KeypairPayload
from nova.notifications.payloads.request_spec import RequestSpecPayload
from nova.notifications.payloads.server_group import ServerGroupPayload
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
        lambda: ServiceStatusPayload.from_sources(service=service),
    )


def flavor(context, flavor, action: str) -> None:
    """``flavor.create``, ``flavor.update`` or ``flavor.delete``."""
    notifier.emit(
        context,
        _api_publisher(),
        f"flavor.{action}",
        lambda: FlavorPayload.from_sources(flavor=flavor),
    )


def keypair(context, keypair, action: str, phase: str) -> None:
    """``keypair.<create|import|delete>.<start|end>``."""
    notifier.emit(
        context,
        _api_publisher(),
        f"keypair.{action}.{phase}",
        lambda: KeypairPayload.from_sources(keypair=keypair),
    )


def server_group(context, group, action: str) -> None:
    """``server_group.create``, ``server_group.delete`` or
    ``server_group.add_member``."""
    notifier.emit(
        context,
        _api_publisher(),
        f"server_group.{action}",
        lambda: ServerGroupPayload.from_group(group),
    )


def server_group_members_added(context, load_group, added: list[str]) -> None:
    """``server_group.add_member`` with the group as ``load_group()`` reads
    it now, if any instance joined."""
    if added:
        notifier.emit(
            context,
            _api_publisher(),
            "server_group.add_member",
            lambda: ServerGroupPayload.from_group(load_group()),
        )


def _aggregate(context, aggregate, action: str, phase: str) -> None:
    notifier.emit(
        context,
        _api_publisher(),
        f"aggregate.{action}.{phase}",
        lambda: AggregatePayload.from_sources(aggregate=aggregate),
    )


@contextlib.contextmanager
def aggregate(context, aggregate, action: str):
    """``aggregate.<action>.start`` now and ``.end`` if the block succeeds
    (create, delete, add_host, remove_host, update_metadata, update_prop)."""
    _aggregate(context, aggregate, action, "start")
    yield
    _aggregate(context, aggregate, action, "end")


def select_destinations(context, spec, phase: str) -> None:
    """``scheduler.select_destinations.<start|end>`` for the request
    ``spec``, from this scheduler."""
    notifier.emit(
        context,
        f"nova-scheduler:{CONF.host}",
        f"scheduler.select_destinations.{phase}",
        lambda: RequestSpecPayload.from_request_spec(spec),
    )


def compute_task_error(
    context, task: str, instance_uuid: str, spec, state: str | None, exc
) -> None:
    """``compute_task.<task>.error``: the conductor's ``task``
    (build_instances, migrate_server, rebuild_server) failed for the
    instance with ``exc``, leaving it ``state``."""

    def build():
        return ComputeTaskPayload(
            instance_uuid=instance_uuid,
            request_spec=RequestSpecPayload.from_request_spec(spec) if spec else None,
            state=state,
            reason=ExceptionPayload.from_exception(exc),
        )

    notifier.emit(
        context,
        f"nova-conductor:{CONF.host}",
        f"compute_task.{task}.error",
        build,
        priority="ERROR",
    )


def build_instances_error(context, specs, exc) -> None:
    """``compute_task.build_instances.error`` for each instance of a
    request that could not be scheduled (it ends in ERROR)."""
    for spec in specs:
        compute_task_error(
            context, "build_instances", spec.instance_uuid, spec, "error", exc
        )


def migrate_server_error(context, instance, spec, exc) -> None:
    """``compute_task.migrate_server.error``: a cold or live migration of
    ``instance`` failed in the conductor with ``exc``."""
    compute_task_error(
        context, "migrate_server", instance.uuid, spec, instance.vm_state, exc
    )
