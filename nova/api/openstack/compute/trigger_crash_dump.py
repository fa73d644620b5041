"""The ``trigger_crash_dump`` server action (2.17+)."""

from __future__ import annotations

from nova.api.openstack import microversion, validation
from nova.api.openstack.compute.schemas import trigger_crash_dump as schemas
from nova.api.openstack.compute.servers import compute_api
from nova.api.openstack.request import Request, json_response


@microversion.version_handler("2.17")
@validation.body(schemas.trigger_crash_dump)
def trigger_crash_dump(req: Request, server_id: str):
    context = req.nova_context
    instance = compute_api().get(context, server_id)
    compute_api().trigger_crash_dump(context, instance)
    return json_response(None, status=202)
