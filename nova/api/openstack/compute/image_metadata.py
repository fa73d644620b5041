"""``/images/{image_id}/metadata``: an image's properties, through Glance.

Deprecated upstream at 2.39: later microversions get 404. Writes count
against the project's ``metadata_items`` quota.
"""

from __future__ import annotations

from nova import exception
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute.images import get_image
from nova.api.openstack.compute.schemas import image_metadata as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import base as compute_base
from nova.image import api as image_api

LAST_VERSION = "2.38"


def _properties(req: Request, image_id: str) -> dict:
    return dict(get_image(req, image_id).get("properties") or {})


def _save(req: Request, image_id: str, old: dict, new: dict) -> dict:
    """Make the image's properties ``new``; what Glance then holds."""
    compute_base.check_metadata_quota(req.nova_context, new)
    changes = {key: value for key, value in new.items() if old.get(key) != value}
    changes.update({key: None for key in old if key not in new})
    image = image_api.get_image_api().update(req.nova_context, image_id, changes)
    return image.get("properties") or {}


@microversion.version_handler("2.1", LAST_VERSION)
def index(req: Request, image_id: str):
    return json_response({"metadata": _properties(req, image_id)})


@microversion.version_handler("2.1", LAST_VERSION)
def show(req: Request, image_id: str, key: str):
    properties = _properties(req, image_id)
    if key not in properties:
        raise exception.MetadataItemNotFound()
    return json_response({"meta": {key: properties[key]}})


@microversion.version_handler("2.1", LAST_VERSION)
@validation.body(schemas.create)
def create(req: Request, image_id: str):
    old = _properties(req, image_id)
    new = {**old, **req.json_body()["metadata"]}
    return json_response({"metadata": _save(req, image_id, old, new)})


@microversion.version_handler("2.1", LAST_VERSION)
@validation.body(schemas.update_all)
def update_all(req: Request, image_id: str):
    old = _properties(req, image_id)
    new = dict(req.json_body()["metadata"])
    return json_response({"metadata": _save(req, image_id, old, new)})


@microversion.version_handler("2.1", LAST_VERSION)
@validation.body(schemas.update)
def update(req: Request, image_id: str, key: str):
    meta = req.json_body()["meta"]
    if key not in meta:
        raise exception.Invalid("Request body and URI mismatch")
    old = _properties(req, image_id)
    saved = _save(req, image_id, old, {**old, key: meta[key]})
    return json_response({"meta": {key: saved.get(key)}})


@microversion.version_handler("2.1", LAST_VERSION)
def delete(req: Request, image_id: str, key: str):
    old = _properties(req, image_id)
    if key not in old:
        raise exception.MetadataItemNotFound()
    _save(req, image_id, old, {k: v for k, v in old.items() if k != key})
    return json_response(None, status=204)
