"""``/flavors/{flavor_id}/os-extra_specs``: a flavor's key/value refinements.

Everyone who sees the flavor reads them; admins change them. From 2.86
keys in namespaces nova knows are validated.
"""

from __future__ import annotations

from nova import exception, objects, policy
from nova.api.openstack import extra_specs, validation
from nova.api.openstack.compute.schemas import flavor_extra_specs as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import flavor_extra_specs as policies


def _authorize(req: Request, rule: str) -> None:
    policy.authorize(req.nova_context, policies.POLICY_ROOT % rule)


def _as_strings(req: Request, specs: dict) -> dict[str, str]:
    values = {}
    for key, value in specs.items():
        # JSON true is stored as "True", as upstream's str() does.
        values[key] = str(value)
        if req.is_supported("2.86"):
            extra_specs.validate(key, values[key])
    return values


def index(req: Request, flavor_id: str):
    _authorize(req, "index")
    flavor = objects.Flavor.get_by_flavor_id(req.nova_context, flavor_id)
    return json_response({"extra_specs": flavor.extra_specs})


@validation.body(schemas.create)
def create(req: Request, flavor_id: str):
    _authorize(req, "create")
    specs = _as_strings(req, req.json_body()["extra_specs"])
    flavor = objects.Flavor.get_by_flavor_id(req.nova_context, flavor_id)
    flavor.update_extra_specs(specs)
    return json_response({"extra_specs": specs})


def show(req: Request, flavor_id: str, key: str):
    _authorize(req, "show")
    flavor = objects.Flavor.get_by_flavor_id(req.nova_context, flavor_id)
    if key not in flavor.extra_specs:
        raise exception.FlavorExtraSpecsNotFound(
            flavor_id=flavor_id, extra_specs_key=key
        )
    return json_response({key: flavor.extra_specs[key]})


@validation.body(schemas.update)
def update(req: Request, flavor_id: str, key: str):
    _authorize(req, "update")
    body = req.json_body()
    if key not in body:
        raise exception.Invalid("Request body and URI mismatch")
    specs = _as_strings(req, body)
    flavor = objects.Flavor.get_by_flavor_id(req.nova_context, flavor_id)
    flavor.update_extra_specs(specs)
    return json_response(specs)


def delete(req: Request, flavor_id: str, key: str):
    _authorize(req, "delete")
    flavor = objects.Flavor.get_by_flavor_id(req.nova_context, flavor_id)
    flavor.delete_extra_spec(key)
    return json_response(None, status=200)
