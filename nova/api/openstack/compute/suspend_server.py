"""The ``suspend`` and ``resume`` server actions."""

from __future__ import annotations

from nova.api.openstack.compute.servers import compute_api
from nova.api.openstack.request import Request, json_response


def suspend(req: Request, server_id: str):
    context = req.nova_context
    compute_api().suspend(context, compute_api().get(context, server_id))
    return json_response(None, status=202)


def resume(req: Request, server_id: str):
    context = req.nova_context
    compute_api().resume(context, compute_api().get(context, server_id))
    return json_response(None, status=202)
