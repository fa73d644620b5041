"""The ``pause`` and ``unpause`` server actions."""

from __future__ import annotations

from nova.api.openstack.compute.servers import compute_api
from nova.api.openstack.request import Request, json_response


def pause(req: Request, server_id: str):
    context = req.nova_context
    compute_api().pause(context, compute_api().get(context, server_id))
    return json_response(None, status=202)


def unpause(req: Request, server_id: str):
    context = req.nova_context
    compute_api().unpause(context, compute_api().get(context, server_id))
    return json_response(None, status=202)
