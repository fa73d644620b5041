"""The ``suspend`` and ``resume`` server actions."""

from __future__ import annotations

from nova.api.openstack.compute import common
from nova.api.openstack.request import Request, json_response
from nova.compute.api import power


def suspend(req: Request, server_id: str):
    context = req.nova_context
    power.PowerAPI().suspend(context, common.get_server(context, server_id))
    return json_response(None, status=202)


def resume(req: Request, server_id: str):
    context = req.nova_context
    power.PowerAPI().resume(context, common.get_server(context, server_id))
    return json_response(None, status=202)
