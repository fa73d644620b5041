"""Version discovery documents: ``GET /``, ``/v2`` and ``/v2.1``.

Clients read these without a token to learn the microversion range before
their first real call, so they are served in front of authentication.
"""

from __future__ import annotations

import copy

from nova.api.openstack import api_version_request, links
from nova.api.openstack.request import Request, json_response

DOCS_LINK = {
    "rel": "describedby",
    "type": "text/html",
    "href": "https://docs.openstack.org/",
}

VERSIONS = {
    "v2.0": {
        "id": "v2.0",
        "status": "SUPPORTED",
        "version": "",
        "min_version": "",
        "updated": "2011-01-21T11:33:21Z",
        "links": [DOCS_LINK],
        "media-types": [
            {
                "base": "application/json",
                "type": "application/vnd.openstack.compute+json;version=2",
            }
        ],
    },
    "v2.1": {
        "id": "v2.1",
        "status": "CURRENT",
        "version": api_version_request.MAX_VERSION,
        "min_version": api_version_request.MIN_VERSION,
        "updated": "2013-07-23T11:33:21Z",
        "links": [DOCS_LINK],
        "media-types": [
            {
                "base": "application/json",
                "type": "application/vnd.openstack.compute+json;version=2.1",
            }
        ],
    },
}

# The URL path of each major version.
PATHS = {"v2.0": "v2", "v2.1": "v2.1"}


def _self_link(req: Request, version_id: str) -> dict:
    return {"rel": "self", "href": f"{links.base_url(req)}/{PATHS[version_id]}/"}


def index(req: Request):
    """All major versions, each linking to its own document."""
    versions = []
    for version_id in sorted(VERSIONS):
        version = VERSIONS[version_id]
        versions.append(
            {
                "id": version["id"],
                "status": version["status"],
                "version": version["version"],
                "min_version": version["min_version"],
                "updated": version["updated"],
                "links": [_self_link(req, version_id)],
            }
        )
    return json_response({"versions": versions})


def _show(req: Request, version_id: str):
    version = copy.deepcopy(VERSIONS[version_id])
    version["links"].insert(0, _self_link(req, version_id))
    return json_response({"version": version})


def show_v2_0(req: Request):
    return _show(req, "v2.0")


def show_v2_1(req: Request):
    return _show(req, "v2.1")
