"""``/os-simple-tenant-usage``: what projects' servers used over a period.

A server is charged for the hours it existed within ``[start, end]``
(from launch to termination); its vCPUs, RAM and disk are weighted by those
hours. 2.40 pages over the servers by uuid.
"""

from __future__ import annotations

import datetime

from oslo_utils import strutils

from nova import exception, objects, policy, scatter_gather
from nova.api.openstack import links, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import simple_tenant_usage as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import simple_tenant_usage as usage_policies
from nova.states import vm_states

_TIME_FORMATS = ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%d %H:%M:%S.%f")


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def _parse_time(value: str | None) -> datetime.datetime:
    if not value:
        return _now()
    for time_format in _TIME_FORMATS:
        try:
            return datetime.datetime.strptime(value, time_format)
        except ValueError:
            continue
    raise exception.Invalid("Datetime is in invalid format")


def _period(req: Request) -> tuple[datetime.datetime, datetime.datetime]:
    start = _parse_time(req.GET.get("start"))
    end = _parse_time(req.GET.get("end"))
    if not start < end:
        raise exception.Invalid(
            "Invalid start time. The start time cannot occur after the end time."
        )
    return start, end


def _naive(value):
    return None if value is None else value.replace(tzinfo=None)


def _hours(instance, start, end) -> float:
    launched, terminated = _naive(instance.launched_at), _naive(instance.terminated_at)
    if launched is None or launched > end or (terminated and terminated < start):
        return 0
    stop = min(end, terminated) if terminated else end
    return (stop - max(launched, start)).total_seconds() / 3600.0


def _server_usage(instance, start, end) -> dict:
    flavor = instance.flavor
    hours = _hours(instance, start, end)
    launched, terminated = _naive(instance.launched_at), _naive(instance.terminated_at)
    state = (
        "terminated" if instance.vm_state == vm_states.DELETED else instance.vm_state
    )
    if launched is None:
        uptime = 0
    else:
        until = terminated if state == "terminated" and terminated else _now()
        uptime = int((until - launched).total_seconds())
    return {
        "instance_id": instance.uuid,
        "name": instance.display_name,
        "hours": hours,
        "memory_mb": flavor.memory_mb,
        "local_gb": flavor.root_gb + flavor.ephemeral_gb,
        "vcpus": flavor.vcpus,
        "tenant_id": instance.project_id,
        "flavor": flavor.name,
        "started_at": launched.isoformat() if launched else None,
        "ended_at": terminated.isoformat() if terminated else None,
        "state": state,
        "uptime": uptime,
    }


def _instances(req: Request, start, end, project_id: str | None) -> list:
    """The servers of every cell that existed in the period; a page of them
    from 2.40, in creation order."""
    found = []
    for _, result in scatter_gather.scatter_gather_all_cells(
        req.nova_context.elevated(read_deleted="yes"),
        lambda cctxt: objects.InstanceList.get_active_by_window_joined(
            cctxt, start, end, project_id, expected_attrs=["flavor"]
        ),
    ):
        if not isinstance(result, BaseException):
            found.extend(result)
    found.sort(key=lambda i: (_naive(i.created_at) or start, i.id))
    if not req.is_supported("2.40"):
        return found
    return common.page_of(req, found, lambda i: i.uuid)


def _tenant_usages(instances, start, end, detailed: bool) -> dict[str, dict]:
    usages: dict[str, dict] = {}
    for instance in instances:
        server = _server_usage(instance, start, end)
        usage = usages.setdefault(
            instance.project_id,
            {
                "tenant_id": instance.project_id,
                "total_hours": 0,
                "total_local_gb_usage": 0,
                "total_memory_mb_usage": 0,
                "total_vcpus_usage": 0,
                "start": start.isoformat(),
                "stop": end.isoformat(),
                **({"server_usages": []} if detailed else {}),
            },
        )
        hours = server["hours"]
        usage["total_hours"] += hours
        usage["total_local_gb_usage"] += server["local_gb"] * hours
        usage["total_memory_mb_usage"] += server["memory_mb"] * hours
        usage["total_vcpus_usage"] += server["vcpus"] * hours
        if detailed:
            usage["server_usages"].append(server)
    return usages


def _next_link(req: Request, path: str, instances: list) -> list[dict]:
    if not req.is_supported("2.40"):
        return []
    return links.collection_links(
        req, path, [{"uuid": i.uuid} for i in instances], "uuid"
    )


@validation.query(schemas.index_query, "2.1", "2.39")
@validation.query(schemas.index_query_v240, "2.40", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def index(req: Request):
    """Usage of every project (admins)."""
    context = req.nova_context
    policy.authorize(context, usage_policies.POLICY_ROOT % "list", target={})
    start, end = _period(req)
    detailed = strutils.bool_from_string(req.GET.get("detailed", "0"))
    instances = _instances(req, start, end, None)
    usages = _tenant_usages(instances, start, end, detailed)
    body: dict = {"tenant_usages": list(usages.values())}
    next_link = _next_link(req, "os-simple-tenant-usage", instances)
    if next_link:
        body["tenant_usages_links"] = next_link
    return json_response(body)


@validation.query(schemas.show_query, "2.1", "2.39")
@validation.query(schemas.show_query_v240, "2.40", "2.74")
@validation.query(schemas.show_query_v275, "2.75")
def show(req: Request, tenant_id: str):
    """Usage of one project, with each of its servers."""
    context = req.nova_context
    policy.authorize(
        context, usage_policies.POLICY_ROOT % "show", target={"project_id": tenant_id}
    )
    start, end = _period(req)
    instances = _instances(req, start, end, tenant_id)
    usages = _tenant_usages(instances, start, end, detailed=True)
    body: dict = {"tenant_usage": usages.get(tenant_id, {})}
    next_link = _next_link(req, f"os-simple-tenant-usage/{tenant_id}", instances)
    if next_link:
        body["tenant_usage_links"] = next_link
    return json_response(body)
