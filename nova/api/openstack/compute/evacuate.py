"""The ``evacuate`` server action, for admins: rebuild a server of a dead
host on another one (200).

Before 2.14 the caller says ``onSharedStorage`` and the answer carries the
admin password (unless ``[api] enable_instance_password`` is off); from
2.14 the answer is empty. ``force`` (2.29 to 2.67) skips the scheduler for
the named host; from 2.95 the evacuated server ends stopped.
"""

from __future__ import annotations

from oslo_utils import strutils

import nova.conf
from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import evacuate as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import create
from nova.compute.api import evacuate as evacuate_api
from nova.states import vm_states

CONF = nova.conf.CONF


@validation.body(schemas.evacuate, "2.1", "2.13")
@validation.body(schemas.evacuate_v214, "2.14", "2.28")
@validation.body(schemas.evacuate_v229, "2.29", "2.67")
@validation.body(schemas.evacuate_v214, "2.68")
def evacuate(req: Request, server_id: str):
    context = req.nova_context
    body = req.json_body()["evacuate"]
    host = body.get("host")
    on_shared_storage = None
    if not req.is_supported("2.14"):
        on_shared_storage = strutils.bool_from_string(
            body["onSharedStorage"], strict=True
        )
        if on_shared_storage and "adminPass" in body:
            raise exception.Invalid("admin password can't be changed on existing disk")
    force = False
    if req.is_supported("2.29") and not req.is_supported("2.68"):
        force = strutils.bool_from_string(body.get("force", False), strict=True)
        if force and not host:
            raise exception.Invalid("Can't force to a non-provided destination")
    password = None
    if not on_shared_storage:
        password = body.get("adminPass") or create.generate_password()
    evacuate_api.EvacuateAPI().evacuate(
        context,
        common.get_server(context, server_id),
        host,
        on_shared_storage=bool(on_shared_storage),
        admin_password=password,
        force=force,
        target_state=vm_states.STOPPED if req.is_supported("2.95") else None,
    )
    if not req.is_supported("2.14") and CONF.api.enable_instance_password:
        return json_response({"adminPass": password})
    return json_response(None if req.is_supported("2.14") else {})
