"""The ``os-getConsoleOutput`` server action: the tail of a guest's console."""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import console_output as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import guest


@validation.body(schemas.get_console_output)
def get_console_output(req: Request, server_id: str):
    context = req.nova_context
    length = (req.json_body()["os-getConsoleOutput"] or {}).get("length")
    if length is not None:
        length = validation.validate_integer(length, "length", -1)
        if length == -1:
            length = None
    instance = common.get_server(context, server_id)
    output = guest.GuestAPI().get_console_output(context, instance, length)
    return json_response({"output": output})
