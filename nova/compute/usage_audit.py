"""The instance usage audit a compute host runs once per audit period.

With ``[DEFAULT] instance_usage_audit`` on, each host looks at the last
completed ``instance_usage_audit_period`` and, unless its task log for that
period exists, records the usage of every instance that lived on it during
the period, in a ``task_log`` row of its cell: RUNNING while it works, DONE
with the instance and error counts after. os-instance_usage_audit_log sums
these rows over all hosts.
"""

from __future__ import annotations

import time

from oslo_log import log as logging

from nova import audit_period, objects
from nova.notifications import instance as instance_notifications

LOG = logging.getLogger(__name__)

TASK_NAME = "instance_usage_audit"


def usage_record(instance, begin, end) -> dict:
    """What the instance used during the period, as upstream's
    ``compute.instance.exists`` usage names it."""
    flavor = instance.flavor
    return {
        "tenant_id": instance.project_id,
        "user_id": instance.user_id,
        "instance_id": instance.uuid,
        "instance_type": flavor.name,
        "instance_type_id": flavor.id,
        "memory_mb": flavor.memory_mb,
        "disk_gb": flavor.root_gb + flavor.ephemeral_gb,
        "vcpus": flavor.vcpus,
        "launched_at": instance.launched_at,
        "terminated_at": instance.terminated_at,
        "audit_period_beginning": begin,
        "audit_period_ending": end,
    }


def audit_host(context, host: str, now=None) -> objects.TaskLog | None:
    """Audit ``host``'s instances over the last completed period; None if
    the host already has a task log for that period."""
    begin, end = audit_period.last_completed_audit_period(before=now)
    if objects.TaskLog.get(context, TASK_NAME, begin, end, host) is not None:
        return None
    instances = objects.InstanceList.get_active_by_window_joined(
        context, begin, end, host=host, expected_attrs=["flavor"]
    )
    LOG.info(
        "Running instance usage audit for host %s from %s to %s: %d instances.",
        host,
        begin,
        end,
        len(instances),
    )
    started = time.monotonic()
    task_log = objects.TaskLog(
        context,
        task_name=TASK_NAME,
        host=host,
        period_beginning=begin,
        period_ending=end,
        task_items=len(instances),
        message="Instance usage audit started...",
    )
    task_log.begin_task()
    errors = 0
    for instance in instances:
        try:
            LOG.debug(
                "Usage of %s: %s", instance.uuid, usage_record(instance, begin, end)
            )
            instance_notifications.notify_exists(context, instance, host, begin, end)
        except Exception:
            LOG.exception("Failed to audit the usage of instance %s", instance.uuid)
            errors += 1
    task_log.errors = errors
    task_log.message = (
        f"Instance usage audit ran for host {host}, {len(instances)} instances "
        f"in {time.monotonic() - started:.2f} seconds."
    )
    task_log.end_task()
    return task_log
