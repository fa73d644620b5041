"""``os-resetState``: an admin forces a server's vm_state."""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import admin_actions as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import servers as server_api
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
