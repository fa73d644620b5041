"""The ``rescue`` and ``unrescue`` server actions.

Rescue boots the server from a rescue image (the one given, else its own)
with its root disk attached as a second disk; unrescue boots it from its
own disk again. Rescue answers 200 with the rescue password (unless
``[api] enable_instance_password`` is off), unrescue 202.
"""

from __future__ import annotations

import nova.conf
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import rescue as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import create
from nova.compute.api import rescue as rescue_api

CONF = nova.conf.CONF


@validation.body(schemas.rescue)
def rescue(req: Request, server_id: str):
    context = req.nova_context
    options = req.json_body()["rescue"] or {}
    password = options.get("adminPass") or create.generate_password()
    instance = common.get_server(context, server_id)
    rescue_api.RescueAPI().rescue(
        context,
        instance,
        rescue_password=password,
        rescue_image_ref=options.get("rescue_image_ref"),
    )
    body = {"adminPass": password} if CONF.api.enable_instance_password else {}
    return json_response(body)


def unrescue(req: Request, server_id: str):
    context = req.nova_context
    rescue_api.RescueAPI().unrescue(context, common.get_server(context, server_id))
    return json_response(None, status=202)
