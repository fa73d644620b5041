"""``/images``: Glance's images as the Compute API showed them (a proxy).

Deprecated upstream at 2.36: later microversions get 404. Glance decides
what the caller may see and delete (the request carries the caller's
token); these handlers only translate.
"""

from __future__ import annotations

from typing import Any

import nova.conf
from nova import exception
from nova.api.openstack import links, microversion, validation
from nova.api.openstack.request import Request, json_response
from nova.image import api as image_api

CONF = nova.conf.CONF

COLLECTION = "images"
LAST_VERSION = "2.35"

# Glance status -> (Compute API status, progress).
_STATUS = {
    "active": ("ACTIVE", 100),
    "queued": ("SAVING", 25),
    "saving": ("SAVING", 50),
    "uploading": ("SAVING", 50),
    "importing": ("SAVING", 50),
    "killed": ("ERROR", 0),
    "deleted": ("DELETED", 0),
    "pending_delete": ("DELETED", 0),
}
# Query parameters of the Compute API -> Glance's filter names.
_FILTERS = {
    "name": "name",
    "status": "status",
    "server": "instance_uuid",
    "type": "image_type",
    "limit": "limit",
    "marker": "marker",
}
# Filtered here: Glance v2 cannot filter on them.
_MINIMUMS = {"minRam": "min_ram", "minDisk": "min_disk"}


def _links(req: Request, image_id: str) -> list[dict]:
    result = links.resource_links(req, COLLECTION, image_id)
    alternate = links.image_bookmark_link(req, image_id)[0]["href"]
    result.append(
        {
            "rel": "alternate",
            "type": "application/vnd.openstack.image",
            "href": alternate,
        }
    )
    return result


def _summary(req: Request, image: dict) -> dict:
    return {
        "id": image["id"],
        "name": image.get("name"),
        "links": _links(req, image["id"]),
    }


def _detail(req: Request, image: dict) -> dict:
    status, progress = _STATUS.get(image.get("status"), ("UNKNOWN", 0))
    properties = image.get("properties") or {}
    body: dict[str, Any] = {
        **_summary(req, image),
        "minRam": image.get("min_ram") or 0,
        "minDisk": image.get("min_disk") or 0,
        "metadata": properties,
        "created": image.get("created_at"),
        "updated": image.get("updated_at"),
        "status": status,
        "progress": progress,
        "OS-EXT-IMG-SIZE:size": image.get("size"),
    }
    server_uuid = properties.get("instance_uuid")
    if server_uuid:
        body["server"] = {
            "id": server_uuid,
            "links": links.resource_links(req, "servers", server_uuid),
        }
    return body


def _images(req: Request) -> list[dict]:
    filters = {
        glance: req.GET[ours] for ours, glance in _FILTERS.items() if ours in req.GET
    }
    # Any image property: property-<name>=<value>.
    filters.update(
        {
            name.removeprefix("property-"): value
            for name, value in req.GET.items()
            if name.startswith("property-")
        }
    )
    if "status" in filters:
        # The Compute API's statuses are upper case (ACTIVE), Glance's lower.
        filters["status"] = filters["status"].lower()
    if "instance_uuid" in filters:
        # server may be given as the server's URL.
        filters["instance_uuid"] = (
            filters["instance_uuid"].rstrip("/").rsplit("/", 1)[-1]
        )
    if "limit" in filters:
        limit = validation.validate_integer(filters["limit"], "limit", 0)
        filters["limit"] = min(limit, CONF.api.max_limit)
    if "changes-since" in req.GET:
        filters["updated_at"] = f"gte:{req.GET['changes-since']}"
    try:
        images = image_api.get_image_api().get_all(req.nova_context, filters)
    except ValueError as exc:
        raise exception.Invalid(str(exc)) from exc
    for ours, attribute in _MINIMUMS.items():
        if ours in req.GET:
            minimum = validation.validate_integer(req.GET[ours], ours)
            images = [i for i in images if (i.get(attribute) or 0) >= minimum]
    return images


def _collection(req: Request, items: list[dict], path: str) -> dict:
    body: dict[str, Any] = {"images": items}
    next_links = links.collection_links(req, path, items, "id")
    if next_links:
        body["images_links"] = next_links
    return body


@microversion.version_handler("2.1", LAST_VERSION)
def index(req: Request):
    items = [_summary(req, image) for image in _images(req)]
    return json_response(_collection(req, items, COLLECTION))


@microversion.version_handler("2.1", LAST_VERSION)
def detail(req: Request):
    items = [_detail(req, image) for image in _images(req)]
    return json_response(_collection(req, items, f"{COLLECTION}/detail"))


def get_image(req: Request, image_id: str) -> dict:
    """:raises ImageNotFound: (404) no such image the caller may see."""
    return image_api.get_image_api().show(req.nova_context, image_id)


@microversion.version_handler("2.1", LAST_VERSION)
def show(req: Request, image_id: str):
    return json_response({"image": _detail(req, get_image(req, image_id))})


@microversion.version_handler("2.1", LAST_VERSION)
def delete(req: Request, image_id: str):
    image_api.get_image_api().delete(req.nova_context, image_id)
    return json_response(None, status=204)
