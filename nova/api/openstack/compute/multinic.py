"""The ``addFixedIp`` and ``removeFixedIp`` server actions (gone from
2.44, as upstream): one more address for the server's port on a network,
or one address less. Done in Neutron at once; the server's addresses show
it at once (its info cache is refreshed)."""

from __future__ import annotations

from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import multinic as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import base
from nova.compute.api import interfaces as interfaces_api
from nova.policies import multinic as policies

MAX_VERSION = "2.43"


def _locked_instance(req: Request, server_id: str, rule: str):
    instance = common.get_instance(req, server_id, rule)
    base.check_lock(instance)
    return instance


@microversion.version_handler("2.1", MAX_VERSION)
@validation.body(schemas.add_fixed_ip)
def add_fixed_ip(req: Request, server_id: str):
    network_id = str(req.json_body()["addFixedIp"]["networkId"])
    instance = _locked_instance(req, server_id, policies.ADD)
    api = interfaces_api.InterfacesAPI()
    api.network_api.add_fixed_ip_to_instance(req.nova_context, instance, network_id)
    api.refresh_network_info(req.nova_context, instance)
    return json_response(None, status=202)


@microversion.version_handler("2.1", MAX_VERSION)
@validation.body(schemas.remove_fixed_ip)
def remove_fixed_ip(req: Request, server_id: str):
    address = req.json_body()["removeFixedIp"]["address"]
    instance = _locked_instance(req, server_id, policies.REMOVE)
    api = interfaces_api.InterfacesAPI()
    api.network_api.remove_fixed_ip_from_instance(req.nova_context, instance, address)
    api.refresh_network_info(req.nova_context, instance)
    return json_response(None, status=202)
