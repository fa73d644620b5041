"""The ``trigger_crash_dump`` server action (2.17+)."""

from __future__ import annotations

from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import trigger_crash_dump as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import guest


@microversion.version_handler("2.17")
@validation.body(schemas.trigger_crash_dump)
def trigger_crash_dump(req: Request, server_id: str):
    context = req.nova_context
    instance = common.get_server(context, server_id)
    guest.GuestAPI().trigger_crash_dump(context, instance)
    return json_response(None, status=202)
