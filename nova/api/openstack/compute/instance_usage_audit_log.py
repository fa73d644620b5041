"""``/os-instance_usage_audit_log``: how far the compute hosts got with
the instance usage audit of the last completed period (before now, or
before the time given), summed over the task logs of every cell."""

from __future__ import annotations

import datetime

from nova import exception, objects, policy
from nova.api.openstack.request import Request, json_response
from nova.audit_period import last_completed_audit_period
from nova.compute import host_api
from nova.compute.usage_audit import TASK_NAME
from nova.objects import task_log as task_log_obj
from nova.policies import instance_usage_audit_log as audit_policies


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, audit_policies.BASE_POLICY_NAME % rule, target={})
    return context


def _audit_summary(context, before: datetime.datetime | None = None) -> dict:
    begin, end = last_completed_audit_period(before=before)
    task_logs = [
        log
        for _, logs in host_api.gather_from_cells(
            context,
            lambda cctxt: objects.TaskLogList.get_all(cctxt, TASK_NAME, begin, end),
        )
        for log in logs
    ]
    # Disabled computes count: they may still have instances to audit.
    hosts = {
        service.host
        for _, services in host_api.gather_from_cells(
            context, lambda cctxt: objects.ServiceList.get_all(cctxt)
        )
        for service in services
        if service.topic == "compute"
    }
    done = {log.host for log in task_logs if log.state == task_log_obj.DONE}
    running = {log.host for log in task_logs if log.state == task_log_obj.RUNNING}
    not_run = sorted(hosts - {log.host for log in task_logs})
    total_errors = sum(log.errors for log in task_logs)
    hosts_done = "ALL" if len(done) == len(hosts) else f"{len(done)} of {len(hosts)}"
    return {
        "period_beginning": str(begin),
        "period_ending": str(end),
        "num_hosts": len(hosts),
        "num_hosts_done": len(done),
        "num_hosts_running": len(running),
        "num_hosts_not_run": len(not_run),
        "hosts_not_run": not_run,
        "total_instances": sum(log.task_items for log in task_logs),
        "total_errors": total_errors,
        "overall_status": f"{hosts_done} hosts done. {total_errors} errors.",
        "log": {
            log.host: {
                "state": log.state,
                "instances": log.task_items,
                "errors": log.errors,
                "message": log.message,
            }
            for log in task_logs
        },
    }


def index(req: Request):
    context = _authorize(req, "list")
    return json_response({"instance_usage_audit_logs": _audit_summary(context)})


def _before(timestamp: str) -> datetime.datetime:
    form = "%Y-%m-%d %H:%M:%S.%f" if "." in timestamp else "%Y-%m-%d %H:%M:%S"
    try:
        return datetime.datetime.strptime(timestamp, form)
    except ValueError as exc:
        raise exception.Invalid(f"Invalid timestamp for date {timestamp}") from exc


def show(req: Request, before_timestamp: str):
    """The audit of the last period completed before ``before_timestamp``
    (``YYYY-MM-DD hh:mm:ss[.ffffff]``)."""
    context = _authorize(req, "show")
    summary = _audit_summary(context, _before(before_timestamp))
    return json_response({"instance_usage_audit_log": summary})
