"""The ``createImage`` and ``createBackup`` server actions.

Both answer 202 once the image record exists (its data follows from the
compute host): before 2.45 with the image's URL in the Location header, from
2.45 with ``{"image_id": ...}`` in the body instead.
"""

from __future__ import annotations

import nova.conf
from nova import exception
from nova.api.openstack import links, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import create_image as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import images as image_actions

CONF = nova.conf.CONF


def _image_created(req: Request, image: dict):
    if req.is_supported("2.45"):
        return json_response({"image_id": image["id"]}, status=202)
    location = links.image_bookmark_link(req, image["id"])[0]["href"]
    return json_response(None, status=202, headers=[("Location", location)])


@validation.body(schemas.create_image)
def create_image(req: Request, server_id: str):
    if not CONF.api.allow_instance_snapshots:
        raise exception.Invalid("Instance snapshots are not permitted at this time.")
    context = req.nova_context
    body = req.json_body()["createImage"]
    instance = common.get_server(context, server_id)
    image = image_actions.ImagesAPI().snapshot(
        context, instance, body["name"], dict(body.get("metadata") or {})
    )
    return _image_created(req, image)


@validation.body(schemas.create_backup)
def create_backup(req: Request, server_id: str):
    context = req.nova_context
    body = req.json_body()["createBackup"]
    rotation = validation.validate_integer(body["rotation"], "rotation", 0)
    instance = common.get_server(context, server_id)
    image = image_actions.ImagesAPI().backup(
        context,
        instance,
        body["name"],
        body["backup_type"],
        rotation,
        dict(body.get("metadata") or {}),
    )
    if rotation == 0 and not req.is_supported("2.45"):
        # Rotation 0 deletes the new backup too: there is nothing to point at.
        return json_response(None, status=202)
    return _image_created(req, image)
