"""The flavor representation per microversion."""

from __future__ import annotations

from nova import policy
from nova.api.openstack import links
from nova.api.openstack.request import Request
from nova.policies import flavor_extra_specs as extra_specs_policies

COLLECTION = "flavors"


def show_extra_specs(req: Request) -> bool:
    """Extra specs are in the body from 2.61, for callers allowed to see them."""
    return req.is_supported("2.61") and policy.authorize(
        req.nova_context, extra_specs_policies.POLICY_ROOT % "index", fatal=False
    )


def basic(req: Request, flavor) -> dict:
    body = {
        "id": flavor.flavorid,
        "name": flavor.name,
        "links": links.resource_links(req, COLLECTION, flavor.flavorid),
    }
    if req.is_supported("2.55"):
        body["description"] = flavor.description
    return body


def detail(req: Request, flavor, extra_specs: bool) -> dict:
    body = basic(req, flavor)
    body.update(
        {
            "ram": flavor.memory_mb,
            "disk": flavor.root_gb,
            # An empty string for no swap until 2.75 made it always a number.
            "swap": flavor.swap if req.is_supported("2.75") else (flavor.swap or ""),
            "OS-FLV-EXT-DATA:ephemeral": flavor.ephemeral_gb,
            "OS-FLV-DISABLED:disabled": flavor.disabled,
            "vcpus": flavor.vcpus,
            "os-flavor-access:is_public": flavor.is_public,
            "rxtx_factor": flavor.rxtx_factor or "",
        }
    )
    if extra_specs:
        body["extra_specs"] = flavor.extra_specs
    return body


def index(req: Request, flavors) -> dict:
    body = {"flavors": [basic(req, flavor) for flavor in flavors]}
    return _with_links(req, body, flavors, COLLECTION)


def index_detail(req: Request, flavors) -> dict:
    extra_specs = show_extra_specs(req)
    body = {"flavors": [detail(req, flavor, extra_specs) for flavor in flavors]}
    return _with_links(req, body, flavors, f"{COLLECTION}/detail")


def _with_links(req: Request, body: dict, flavors, path: str) -> dict:
    next_links = links.collection_links(
        req, path, [{"flavorid": f.flavorid} for f in flavors], "flavorid"
    )
    if next_links:
        body["flavors_links"] = next_links
    return body


def show(req: Request, flavor) -> dict:
    return {"flavor": detail(req, flavor, show_extra_specs(req))}
