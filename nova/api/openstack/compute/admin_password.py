"""The ``changePassword`` server action: the guest's admin password."""

from __future__ import annotations

from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import admin_password as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import guest


@validation.body(schemas.change_password)
def change_password(req: Request, server_id: str):
    context = req.nova_context
    password = req.json_body()["changePassword"]["adminPass"]
    instance = common.get_server(context, server_id)
    try:
        guest.GuestAPI().set_admin_password(context, instance, password)
    except NotImplementedError as exc:
        raise exception.FeatureNotSupported(
            message="Unable to set password on instance"
        ) from exc
    return json_response(None, status=202)
