"""The administrators' server actions: ``os-resetState`` forces a server's
vm_state, ``injectNetworkInfo`` brings its network info cache to what
Neutron has; ``resetNetwork`` (nova-network's) is gone (410)."""

from __future__ import annotations

from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import admin_actions as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import interfaces as interfaces_api
from nova.compute.api import servers as server_api
from nova.policies import admin_actions as policies
from nova.states import vm_states

_STATES = {"active": vm_states.ACTIVE, "error": vm_states.ERROR}


@validation.body(schemas.reset_state)
def reset_state(req: Request, server_id: str):
    context = req.nova_context
    state = _STATES[req.json_body()["os-resetState"]["state"]]
    server_api.ServersAPI().reset_state(
        context, common.get_server(context, server_id), state
    )
    return json_response(None, status=202)


def inject_network_info(req: Request, server_id: str):
    context = req.nova_context
    api = interfaces_api.InterfacesAPI()
    instance = common.get_server(context, server_id)
    api.on_host(context, instance, "inject_network_info", policies.INJECT_NETWORK_INFO)
    api.refresh_network_info(context, instance)
    return json_response(None, status=202)


def reset_network(req: Request, server_id: str):
    """Gone with nova-network, as upstream answers."""
    raise exception.Gone()
