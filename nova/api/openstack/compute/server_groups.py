"""``/os-server-groups``: groups of servers under one placement policy.

Before 2.64 a group shows a one-item ``policies`` list and an empty
``metadata``; from 2.64 it shows ``policy`` and ``rules`` instead. 2.13
adds ``project_id`` and ``user_id``; 2.15 accepts the soft policies.
"""

from __future__ import annotations

from oslo_utils import strutils

import nova.conf
from nova import exception, objects, policy, quota
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute.schemas import server_groups as schemas
from nova.api.openstack.request import Request, json_response
from nova.objects import instance_group as instance_group_obj
from nova.policies import server_groups as sg_policies

CONF = nova.conf.CONF


def _view(req: Request, group) -> dict:
    body = {"id": group.uuid, "name": group.name, "members": list(group.members)}
    if req.is_supported("2.64"):
        body["policy"] = group.policy
        body["rules"] = instance_group_obj.typed_rules(group.rules)
    else:
        body["policies"] = [group.policy] if group.policy else []
        body["metadata"] = {}
    if req.is_supported("2.13"):
        body["project_id"] = group.project_id
        body["user_id"] = group.user_id
    return body


def _create(req: Request, policy_name: str, rules: dict) -> dict:
    context = req.nova_context
    policy.authorize(
        context,
        sg_policies.POLICY_ROOT % "create",
        {"project_id": context.project_id, "user_id": context.user_id},
    )
    try:
        quota.enforce(
            context, {"server_groups": 1}, context.project_id, context.user_id
        )
    except exception.OverQuota as exc:
        raise exception.ServerGroupLimitExceeded() from exc
    group = objects.InstanceGroup(
        context,
        name=req.json_body()["server_group"]["name"],
        policy=policy_name,
        rules={key: str(value) for key, value in rules.items()},
        members=[],
        project_id=context.project_id,
        user_id=context.user_id,
    )
    group.create()
    try:
        # Racing creates may all have passed the check above.
        quota.recheck(context, ["server_groups"], context.project_id, context.user_id)
    except exception.OverQuota as exc:
        group.destroy()
        raise exception.ServerGroupLimitExceeded() from exc
    return json_response({"server_group": _view(req, group)})


@microversion.version_handler("2.1", "2.14")
@validation.body(schemas.create)
def create(req: Request):
    return _create(req, req.json_body()["server_group"]["policies"][0], {})


@microversion.version_handler("2.15", "2.63")
@validation.body(schemas.create_v215)
def create(req: Request):  # noqa: F811
    return _create(req, req.json_body()["server_group"]["policies"][0], {})


@microversion.version_handler("2.64")
@validation.body(schemas.create_v264)
def create(req: Request):  # noqa: F811
    values = req.json_body()["server_group"]
    rules = values.get("rules") or {}
    if rules and values["policy"] != "anti-affinity":
        raise exception.Invalid("Only anti-affinity policy supports rules.")
    return _create(req, values["policy"], rules)


def _int_param(req: Request, name: str, default: int) -> int:
    if name not in req.GET:
        return default
    return validation.validate_integer(req.GET[name], name, 0)


@validation.query(schemas.index_query, "2.1", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def index(req: Request):
    context = req.nova_context
    policy.authorize(
        context, sg_policies.POLICY_ROOT % "index", {"project_id": context.project_id}
    )
    all_projects = strutils.bool_from_string(req.GET.get("all_projects", False))
    if all_projects and policy.authorize(
        context, sg_policies.POLICY_ROOT % "index:all_projects", {}, fatal=False
    ):
        groups = objects.InstanceGroupList.get_all(context)
    else:
        groups = objects.InstanceGroupList.get_by_project_id(
            context, context.project_id
        )
    offset = _int_param(req, "offset", 0)
    limit = min(_int_param(req, "limit", CONF.api.max_limit), CONF.api.max_limit)
    page = list(groups)[offset : offset + limit]
    return json_response({"server_groups": [_view(req, g) for g in page]})


def _get(req: Request, group_id: str, action: str):
    context = req.nova_context
    group = objects.InstanceGroup.get_by_uuid(context, group_id)
    policy.authorize(
        context, sg_policies.POLICY_ROOT % action, {"project_id": group.project_id}
    )
    return group


def show(req: Request, group_id: str):
    return json_response({"server_group": _view(req, _get(req, group_id, "show"))})


def delete(req: Request, group_id: str):
    _get(req, group_id, "delete").destroy()
    return json_response(None, status=204)
