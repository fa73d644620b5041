"""URLs the API puts in its responses: self, bookmark and next links."""

from __future__ import annotations

from urllib.parse import urlencode

import nova.conf
from nova.api.openstack.request import Request

CONF = nova.conf.CONF

API_PREFIX = "/v2.1"


def base_url(req: Request) -> str:
    """Scheme, host and any deployment prefix (``http://host/compute``).

    ``[api] compute_link_prefix`` replaces the request's own, for an API
    behind a proxy.
    """
    prefix = CONF.api.compute_link_prefix
    if prefix:
        return prefix.rstrip("/")
    return (req.host_url + req.script_name).rstrip("/")


def _project_segment(req: Request) -> str:
    # Links keep the /{project_id}/ form only if the request used it.
    return f"/{req.url_project_id}" if req.url_project_id else ""


def resource_links(req: Request, collection: str, resource_id: str) -> list[dict]:
    """``self`` (versioned) and ``bookmark`` (unversioned) links."""
    base, project = base_url(req), _project_segment(req)
    return [
        {
            "rel": "self",
            "href": f"{base}{API_PREFIX}{project}/{collection}/{resource_id}",
        },
        {"rel": "bookmark", "href": f"{base}{project}/{collection}/{resource_id}"},
    ]


def bookmark_link(req: Request, collection: str, resource_id: str) -> list[dict]:
    base, project = base_url(req), _project_segment(req)
    return [{"rel": "bookmark", "href": f"{base}{project}/{collection}/{resource_id}"}]


def image_bookmark_link(req: Request, image_id: str) -> list[dict]:
    link = bookmark_link(req, "images", image_id)
    glance_prefix = CONF.api.glance_link_prefix
    if glance_prefix:
        link[0]["href"] = (
            glance_prefix.rstrip("/") + link[0]["href"][len(base_url(req)) :]
        )
    return link


def collection_links(
    req: Request, collection_path: str, items: list, id_key: str
) -> list[dict]:
    """A ``next`` link when the page is full, carrying the last item as
    the marker and every other query parameter of the request."""
    limit = min(int(req.GET.get("limit", CONF.api.max_limit)), CONF.api.max_limit)
    if not items or limit != len(items):
        return []
    params = dict(sorted(req.GET.items()))
    params["marker"] = items[-1][id_key]
    base, project = base_url(req), _project_segment(req)
    href = f"{base}{API_PREFIX}{project}/{collection_path}?{urlencode(params)}"
    return [{"rel": "next", "href": href}]
