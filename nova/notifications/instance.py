"""Instance notifications: ``instance.<action>.start/end/error``,
``instance.create.*``, ``instance.update``, ``instance.exists`` in the
versioned format, and their legacy ``compute.instance.*`` twins in the
unversioned one.

Every function here is safe to call from a flow: building the payload or
sending it may fail, and that is logged and swallowed (see
:func:`nova.notifications.notifier.emit`).
"""

from __future__ import annotations

import contextlib
from typing import Any

from oslo_log import log as logging

import nova.conf
from nova.notifications import notifier
from nova.notifications.payloads import instance as payloads
from nova.notifications.payloads.exception import ExceptionPayload
from nova.states import power_state

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

START, END, ERROR = "start", "end", "error"

# Upstream's unversioned names of the move steps, where they differ from
# the versioned ones (None: versioned only).
_LEGACY_ACTIONS: dict[str, str | None] = {
    "resize_prep": "resize.prep",
    "resize_finish": "finish_resize",
    "resize_confirm": "resize.confirm",
    "resize_revert": "resize.revert",
    "live_migration_pre": "live_migration.pre",
    "live_migration_post": "live_migration._post",
    "live_migration_post_dest": "live_migration.post.dest",
    "live_migration_rollback": "live_migration._rollback",
    "live_migration_rollback_dest": "live_migration.rollback.dest",
    "live_migration_abort": "live.migration.abort",
    "live_migration_force_complete": "live.migration.force.complete",
    "evacuate": None,
    "interface_attach": None,
    "interface_detach": None,
    "volume_attach": None,
    "volume_detach": None,
}


def publisher_id(binary: str, host: str | None = None) -> str:
    """``nova-compute:<host>``, ``nova-api:<host>`` ... as upstream names them."""
    return f"{binary}:{host or CONF.host}"


def notify_action(
    context,
    instance,
    host: str | None,
    action: str,
    phase: str | None,
    exception: BaseException | None = None,
    payload_class=payloads.InstanceActionPayload,
    binary: str = "nova-compute",
    **fields: Any,
) -> None:
    """Send ``instance.<action>.<phase>`` (``instance.<action>`` when
    ``phase`` is None); ``exception`` becomes the payload's fault and makes
    it an ERROR. ``fields`` are those ``payload_class`` adds."""
    event_type = f"instance.{action}" + (f".{phase}" if phase else "")

    def build():
        fault = ExceptionPayload.from_exception(exception) if exception else None
        return payload_class(context, instance, fault, **fields)

    priority = "ERROR" if exception is not None else None
    legacy_action = _LEGACY_ACTIONS.get(action, action)
    notifier.emit(
        context,
        publisher_id(binary, host),
        event_type,
        build,
        (lambda: legacy_payload(instance)) if legacy_action else None,
        priority,
        legacy_event_type=f"instance.{legacy_action}" + (f".{phase}" if phase else ""),
    )


def notify_api_action(context, instance, action: str) -> None:
    """``instance.<action>`` of a change the API makes by itself (lock,
    unlock), published by nova-api; versioned only, as upstream."""
    notifier.emit(
        context,
        publisher_id("nova-api"),
        f"instance.{action}",
        lambda: payloads.InstanceActionPayload(context, instance),
    )


@contextlib.contextmanager
def action(context, instance, host: str | None, action: str, **fields: Any):
    """``instance.<action>.start`` now, ``.end`` when the block ends,
    ``.error`` (then the exception goes on) when it raises."""
    notify_action(context, instance, host, action, START, **fields)
    try:
        yield
    except Exception as exc:
        notify_action(context, instance, host, action, ERROR, exc, **fields)
        raise
    notify_action(context, instance, host, action, END, **fields)


def volume_action(context, instance, host: str, event: str, volume_id: str):
    """``instance.volume_attach`` or ``instance.volume_detach`` (``event``)
    around the host's part of it: ``.start``, then ``.end`` or ``.error``,
    with the volume's id (InstanceActionVolumePayload)."""
    return action(
        context,
        instance,
        host,
        event,
        payload_class=payloads.InstanceActionVolumePayload,
        volume_id=volume_id,
    )


# Task states of a resize or cold migration: a failure then is announced
# as instance.resize.error.
_RESIZE_TASK_STATES = frozenset(
    {"resize_prep", "resize_migrating", "resize_migrated", "resize_finish"}
)


def move(context, instance, host: str, event: str) -> None:
    """``instance.<event>`` of a step of a move on ``host``: ``event`` is
    ``<action>.<start|end>`` with the action one of resize, resize_finish,
    resize_confirm, resize_revert, live_migration_pre, live_migration_post,
    live_migration_post_dest, live_migration_rollback,
    live_migration_rollback_dest, live_migration_abort,
    live_migration_force_complete."""
    action, phase = event.rsplit(".", 1)
    notify_action(context, instance, host, action, phase)


def evacuate(context, instance, host: str) -> None:
    """``instance.evacuate`` from the destination, as it takes the
    instance over (one event, no start or end, as upstream)."""
    notify_action(context, instance, host, "evacuate", None)


def resize_prep(context, instance, host: str, new_flavor, phase: str) -> None:
    """``instance.resize_prep.<phase>`` on the destination, with the
    flavor the instance is being resized to."""
    notify_action(
        context,
        instance,
        host,
        "resize_prep",
        phase,
        payload_class=payloads.InstanceActionResizePrepPayload,
        new_flavor=new_flavor,
    )


def move_failed(context, instance, host: str, exc: BaseException) -> None:
    """``instance.resize.error`` when a resize or cold migration step
    failed with ``exc`` (a live migration's failure has its rollback
    events instead)."""
    if instance.task_state in _RESIZE_TASK_STATES:
        notify_action(context, instance, host, "resize", ERROR, exc)


def notify_update(
    instance,
    host: str | None,
    old_vm_state: str | None,
    old_task_state: str | None,
    binary: str = "nova-compute",
) -> None:
    """``instance.update`` when the state changed as
    ``notify_on_state_change`` asks to be told, for the request the
    instance object came with."""
    watched = CONF.notifications.notify_on_state_change
    if not watched:
        return
    vm_changed = old_vm_state != instance.vm_state
    task_changed = old_task_state != instance.task_state
    if not (vm_changed or (watched == "vm_and_task_state" and task_changed)):
        return

    context = instance._context

    def build():
        from nova import audit_period

        beginning, ending = audit_period.last_completed_audit_period()
        return payloads.InstanceUpdatePayload(
            context,
            instance,
            state_update=payloads.InstanceStateUpdatePayload(
                old_state=old_vm_state,
                state=instance.vm_state,
                old_task_state=old_task_state,
                new_task_state=instance.task_state,
            ),
            audit_period=payloads.AuditPeriodPayload(
                audit_period_beginning=beginning, audit_period_ending=ending
            ),
            old_display_name=None,
            tags=[tag.tag for tag in instance.tags] if instance.tags else [],
        )

    notifier.emit(
        context,
        publisher_id(binary, host),
        "instance.update",
        build,
        lambda: legacy_payload(instance),
    )


def notify_exists(context, instance, host: str, begin, end) -> None:
    """``instance.exists``: the instance lived on ``host`` during the
    audit period [begin, end) (usage for billing and telemetry)."""

    def build():
        return payloads.InstanceExistsPayload(
            context,
            instance,
            audit_period=payloads.AuditPeriodPayload(
                audit_period_beginning=begin, audit_period_ending=end
            ),
        )

    def legacy():
        return {
            **legacy_payload(instance),
            "audit_period_beginning": begin.isoformat(),
            "audit_period_ending": end.isoformat(),
            "bandwidth": {},
        }

    notifier.emit(
        context, publisher_id("nova-compute", host), "instance.exists", build, legacy
    )


def compute_exception(context, host: str, exc: BaseException) -> None:
    """``compute.exception``: an action of this compute failed with ``exc``."""
    notifier.emit(
        context,
        publisher_id("nova-compute", host),
        "compute.exception",
        lambda: ExceptionPayload.from_exception(exc),
        priority="ERROR",
    )


def legacy_payload(instance) -> dict[str, Any]:
    """The unversioned payload of ``compute.instance.*``: upstream's key
    names for what consumers such as Ceilometer read."""
    flavor = instance.flavor
    info_cache = instance.info_cache
    fixed_ips = [
        {
            "address": ip.address,
            "version": ip.version,
            "label": ip.label,
            "vif_mac": ip.mac,
            "type": "fixed",
        }
        for ip in payloads.IpPayload.from_network_info(
            info_cache.network_info if info_cache is not None else None
        )
    ]

    def iso(value):
        return value.isoformat() if value is not None else ""

    return {
        "tenant_id": instance.project_id,
        "user_id": instance.user_id,
        "instance_id": instance.uuid,
        "display_name": instance.display_name,
        "reservation_id": instance.reservation_id,
        "hostname": instance.hostname,
        "host": instance.host,
        "node": instance.node,
        "availability_zone": instance.availability_zone,
        "instance_type": flavor.name,
        "instance_type_id": flavor.id if "id" in flavor else None,
        "instance_flavor_id": flavor.flavorid,
        "memory_mb": flavor.memory_mb,
        "vcpus": flavor.vcpus,
        "root_gb": flavor.root_gb,
        "ephemeral_gb": flavor.ephemeral_gb,
        "disk_gb": flavor.root_gb + flavor.ephemeral_gb,
        "created_at": iso(instance.created_at),
        "launched_at": iso(instance.launched_at),
        "terminated_at": iso(instance.terminated_at),
        "deleted_at": iso(instance.deleted_at),
        "state": instance.vm_state,
        "state_description": instance.task_state or "",
        "power_state": power_state.STATE_MAP.get(instance.power_state or 0),
        "progress": instance.progress if instance.progress is not None else "",
        "image_ref_url": instance.image_ref,
        "os_type": instance.os_type,
        "architecture": instance.architecture,
        "metadata": dict(instance.metadata or {}),
        "fixed_ips": fixed_ips,
    }
