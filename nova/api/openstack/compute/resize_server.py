"""The ``resize``, ``confirmResize`` and ``revertResize`` server actions.

A resize moves the server to another flavor (202); it ends VERIFY_RESIZE
until the user confirms it (204) or reverts it (202) to the old flavor.
"""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import resize_server as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import moves


@validation.body(schemas.resize)
def resize(req: Request, server_id: str):
    context = req.nova_context
    flavor_ref = req.json_body()["resize"]["flavorRef"]
    moves.MovesAPI().resize(context, common.get_server(context, server_id), flavor_ref)
    return json_response(None, status=202)


def confirm_resize(req: Request, server_id: str):
    context = req.nova_context
    moves.MovesAPI().confirm_resize(context, common.get_server(context, server_id))
    return json_response(None, status=204)


def revert_resize(req: Request, server_id: str):
    context = req.nova_context
    moves.MovesAPI().revert_resize(context, common.get_server(context, server_id))
    return json_response(None, status=202)
