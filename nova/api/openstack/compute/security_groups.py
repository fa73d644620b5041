"""Security groups: the proxy of Neutron's (``/os-security-groups``,
``/os-security-group-rules``; gone from 2.36, as upstream), a server's
groups (``/servers/{server_id}/os-security-groups``) and the
``addSecurityGroup`` / ``removeSecurityGroup`` server actions.
"""

from __future__ import annotations

from typing import Any

from nova import exception, policy
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.request import Request, json_response
from nova.network import security_groups as sg_api
from nova.policies import security_groups as policies

PROXY_MAX_VERSION = "2.35"


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, rule, {"project_id": context.project_id})
    return context


def _section(req: Request, key: str) -> dict[str, Any]:
    """The body's ``key`` object.

    :raises Invalid: there is none.
    """
    body = req.json_body()
    section = body.get(key) if isinstance(body, dict) else None
    if not isinstance(section, dict):
        raise exception.Invalid("Missing parameter dict")
    return section


# -- /os-security-groups ------------------------------------------------------


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def index(req: Request):
    context = _authorize(req, policies.GET)
    # As upstream: the parameter's presence asks, its value is not read.
    all_projects = "all_tenants" in req.GET
    groups = sg_api.SecurityGroupAPI().list(context, all_projects)
    limit, _ = common.limit_and_marker(req)
    offset = validation.validate_integer(req.GET.get("offset", 0), "offset", 0)
    return json_response({"security_groups": groups[offset : offset + limit]})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def show(req: Request, security_group_id: str):
    context = _authorize(req, policies.SHOW)
    group = sg_api.SecurityGroupAPI().get(context, security_group_id)
    return json_response({"security_group": group})


def _name_and_description(req: Request) -> tuple[str, str]:
    group = _section(req, "security_group")
    return (
        sg_api.validate_property(group.get("name"), "name"),
        sg_api.validate_property(group.get("description"), "description"),
    )


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def create(req: Request):
    context = _authorize(req, policies.CREATE)
    name, description = _name_and_description(req)
    group = sg_api.SecurityGroupAPI().create(context, name, description)
    return json_response({"security_group": group})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def update(req: Request, security_group_id: str):
    context = _authorize(req, policies.UPDATE)
    sg_api.validate_id(security_group_id)
    name, description = _name_and_description(req)
    group = sg_api.SecurityGroupAPI().update(
        context, security_group_id, name, description
    )
    return json_response({"security_group": group})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def delete(req: Request, security_group_id: str):
    context = _authorize(req, policies.DELETE)
    sg_api.SecurityGroupAPI().delete(context, security_group_id)
    return json_response(None, status=202)


# -- /os-security-group-rules -------------------------------------------------


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def create_rule(req: Request):
    context = _authorize(req, policies.RULE_CREATE)
    rule = _section(req, "security_group_rule")
    parent = rule.get("parent_group_id")
    if not isinstance(parent, str):
        raise exception.Invalid("parent_group_id is required")
    sg_api.validate_id(parent)
    source = rule.get("group_id")
    if source is not None:
        if not isinstance(source, str):
            raise exception.Invalid("Security group id should be uuid")
        sg_api.validate_id(source)
    cidr = rule.get("cidr")
    if cidr is not None and not isinstance(cidr, str):
        raise exception.Invalid(f"Invalid cidr {cidr}.")
    protocol = rule.get("ip_protocol")
    if protocol is not None and not isinstance(protocol, str):
        raise exception.Invalid(f"Invalid IP protocol {protocol}.")
    body = sg_api.new_rule(
        parent,
        protocol,
        rule.get("from_port"),
        rule.get("to_port"),
        cidr,
        source,
    )
    created = sg_api.SecurityGroupAPI().create_rule(context, body)
    return json_response({"security_group_rule": created})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def delete_rule(req: Request, security_group_rule_id: str):
    context = _authorize(req, policies.RULE_DELETE)
    sg_api.SecurityGroupAPI().delete_rule(context, security_group_rule_id)
    return json_response(None, status=202)


# -- a server's groups --------------------------------------------------------


def server_index(req: Request, server_id: str):
    instance = common.get_instance(req, server_id, policies.LIST)
    groups = sg_api.SecurityGroupAPI().for_instance(req.nova_context, instance)
    return json_response({"security_groups": groups})


def _group_name(req: Request, action: str) -> str:
    body = req.json_body()[action]
    if not isinstance(body, dict):
        raise exception.Invalid("Missing parameter dict")
    if "name" not in body:
        raise exception.Invalid("Security group not specified")
    name = body["name"]
    if not isinstance(name, str) or not name.strip():
        raise exception.Invalid("Security group name cannot be empty")
    return name.strip()


def add_security_group(req: Request, server_id: str):
    name = _group_name(req, "addSecurityGroup")
    instance = common.get_instance(req, server_id, policies.ADD)
    sg_api.SecurityGroupAPI().add_to_instance(req.nova_context, instance, name)
    return json_response(None, status=202)


def remove_security_group(req: Request, server_id: str):
    name = _group_name(req, "removeSecurityGroup")
    instance = common.get_instance(req, server_id, policies.REMOVE)
    sg_api.SecurityGroupAPI().remove_from_instance(req.nova_context, instance, name)
    return json_response(None, status=202)
