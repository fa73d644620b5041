"""``os-resetState``: an admin forces a server's vm_state."""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import admin_actions as schemas
from nova.api.openstack.compute.servers import compute_api
from nova.api.openstack.request import Request, json_response
from nova.compute import vm_states

_STATES = {"active": vm_states.ACTIVE, "error": vm_states.ERROR}


@validation.body(schemas.reset_state)
def reset_state(req: Request, server_id: str):
    context = req.nova_context
    state = _STATES[req.json_body()["os-resetState"]["state"]]
    compute_api().reset_state(context, compute_api().get(context, server_id), state)
    return json_response(None, status=202)
