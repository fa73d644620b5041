"""Floating IPs: the ``/os-floating-ips`` proxy of Neutron's (gone from
2.36) and the ``addFloatingIp`` / ``removeFloatingIp`` server actions
(gone from 2.44), as upstream. An association changes the server's
addresses at once (its info cache is refreshed)."""

from __future__ import annotations

from nova import exception, policy
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import floating_ips as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import interfaces as interfaces_api
from nova.network import floating_ips as fip_api
from nova.policies import floating_ips as policies

PROXY_MAX_VERSION = "2.35"
ACTIONS_MAX_VERSION = "2.43"


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, rule, {"project_id": context.project_id})
    return context


def _refresh(instance_uuid: str | None) -> None:
    if instance_uuid:
        interfaces_api.InterfacesAPI().refresh_network_info_of(instance_uuid)


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def index(req: Request):
    context = _authorize(req, policies.LIST)
    return json_response({"floating_ips": fip_api.FloatingIPAPI().list(context)})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def show(req: Request, floating_ip_id: str):
    context = _authorize(req, policies.SHOW)
    fip = fip_api.FloatingIPAPI().get(context, floating_ip_id)
    return json_response({"floating_ip": fip})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def create(req: Request):
    context = _authorize(req, policies.CREATE)
    body = req.json_body()
    pool = body.get("pool") if isinstance(body, dict) else None
    if pool is not None and not isinstance(pool, str):
        raise exception.Invalid("The pool is a network's name or id")
    fip = fip_api.FloatingIPAPI().allocate(context, pool)
    return json_response({"floating_ip": fip})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def delete(req: Request, floating_ip_id: str):
    context = _authorize(req, policies.DELETE)
    _refresh(fip_api.FloatingIPAPI().release(context, floating_ip_id))
    return json_response(None, status=202)


@microversion.version_handler("2.1", ACTIONS_MAX_VERSION)
@validation.body(schemas.add_floating_ip)
def add_floating_ip(req: Request, server_id: str):
    body = req.json_body()["addFloatingIp"]
    instance = common.get_instance(req, server_id, policies.ADD)
    api = fip_api.FloatingIPAPI()
    previous = api.associate(
        req.nova_context, instance, body["address"], body.get("fixed_address")
    )
    interfaces_api.InterfacesAPI().refresh_network_info(req.nova_context, instance)
    _refresh(previous)
    return json_response(None, status=202)


@microversion.version_handler("2.1", ACTIONS_MAX_VERSION)
@validation.body(schemas.remove_floating_ip)
def remove_floating_ip(req: Request, server_id: str):
    address = req.json_body()["removeFloatingIp"]["address"]
    instance = common.get_instance(req, server_id, policies.REMOVE)
    fip_api.FloatingIPAPI().disassociate(req.nova_context, instance, address)
    interfaces_api.InterfacesAPI().refresh_network_info(req.nova_context, instance)
    return json_response(None, status=202)
