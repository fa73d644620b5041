"""``/servers/{server_id}/os-volume_attachments``: a server's volumes, and
attaching one to it or detaching one from it.

The list and show read the server's block device mappings; an attach
reserves the volume and answers with the device it gets while the host
connects it; a detach is accepted (202) and done on the host. 2.49 lets an
attach tag the device, 2.70 shows the tag, 2.79 sets and shows
``delete_on_termination``, and 2.89 shows ``attachment_id`` and
``bdm_uuid`` instead of ``id``.
"""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import volume_attachments as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import volumes as volumes_api


def _view(req: Request, bdm) -> dict:
    view = {}
    if not req.is_supported("2.89"):
        view["id"] = bdm.volume_id
    view["volumeId"] = bdm.volume_id
    view["serverId"] = bdm.instance_uuid
    if bdm.device_name:
        view["device"] = bdm.device_name
    if req.is_supported("2.70"):
        view["tag"] = bdm.tag
    if req.is_supported("2.79"):
        view["delete_on_termination"] = bdm.delete_on_termination
    if req.is_supported("2.89"):
        view["attachment_id"] = bdm.attachment_id
        view["bdm_uuid"] = bdm.uuid
    return view


def _server(req: Request, server_id: str):
    return common.get_server(req.nova_context, server_id)


def index(req: Request, server_id: str):
    instance = _server(req, server_id)
    bdms = volumes_api.VolumesAPI().list_volumes(req.nova_context, instance)
    return json_response({"volumeAttachments": [_view(req, bdm) for bdm in bdms]})


def show(req: Request, server_id: str, volume_id: str):
    instance = _server(req, server_id)
    bdm = volumes_api.VolumesAPI().show_volume(req.nova_context, instance, volume_id)
    return json_response({"volumeAttachment": _view(req, bdm)})


@validation.body(schemas.create, "2.1", "2.48")
@validation.body(schemas.create_v249, "2.49", "2.78")
@validation.body(schemas.create_v279, "2.79")
def create(req: Request, server_id: str):
    attachment = req.json_body()["volumeAttachment"]
    volume_id = attachment["volumeId"]
    tag = attachment.get("tag")
    delete_on_termination = attachment.get("delete_on_termination", False)
    instance = _server(req, server_id)
    device = volumes_api.VolumesAPI().attach_volume(
        req.nova_context,
        instance,
        volume_id,
        device=attachment.get("device"),
        tag=tag,
        delete_on_termination=delete_on_termination,
    )
    view = {
        "id": volume_id,
        "serverId": server_id,
        "volumeId": volume_id,
        "device": device,
    }
    if req.is_supported("2.70"):
        view["tag"] = tag
    if req.is_supported("2.79"):
        view["delete_on_termination"] = delete_on_termination
    return json_response({"volumeAttachment": view})


def delete(req: Request, server_id: str, volume_id: str):
    instance = _server(req, server_id)
    volumes_api.VolumesAPI().detach_volume(req.nova_context, instance, volume_id)
    return json_response(None, status=202)
