"""The ``lock`` and ``unlock`` server actions.

A locked server refuses changes (power actions, delete, metadata writes,
...) from anyone but an admin; 2.73 lets the locker say why.
"""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import lock_server as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import servers as server_api


@validation.body(schemas.lock, "2.1", "2.72")
@validation.body(schemas.lock_v273, "2.73")
def lock(req: Request, server_id: str):
    context = req.nova_context
    reason = None
    if req.is_supported("2.73"):
        reason = (req.json_body()["lock"] or {}).get("locked_reason")
    server_api.ServersAPI().lock(
        context, common.get_server(context, server_id), reason=reason
    )
    return json_response(None, status=202)


@validation.body(schemas.unlock)
def unlock(req: Request, server_id: str):
    context = req.nova_context
    server_api.ServersAPI().unlock(context, common.get_server(context, server_id))
    return json_response(None, status=202)
