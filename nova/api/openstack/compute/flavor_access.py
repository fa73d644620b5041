"""``/flavors/{flavor_id}/os-flavor-access`` and the ``addTenantAccess`` /
``removeTenantAccess`` actions: which projects may use a private flavor."""

from __future__ import annotations

from nova import exception, objects, policy
from nova.api.openstack import identity, validation
from nova.api.openstack.compute.schemas import flavor_extra_specs as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import flavor_access as policies


def _access_list(flavor) -> dict:
    return {
        "flavor_access": [
            {"flavor_id": flavor.flavorid, "tenant_id": project_id}
            for project_id in flavor.projects
        ]
    }


def index(req: Request, flavor_id: str):
    context = req.nova_context
    policy.authorize(context, policies.BASE_POLICY_NAME)
    flavor = objects.Flavor.get_by_flavor_id(context, flavor_id)
    if flavor.is_public:
        raise exception.NotFound("Access list not available for public flavors.")
    return json_response(_access_list(flavor))


@validation.body(schemas.add_tenant_access)
def _add_tenant_access(req: Request, flavor_id: str):
    context = req.nova_context
    policy.authorize(context, policies.POLICY_ROOT % "add_tenant_access")
    project_id = req.json_body()["addTenantAccess"]["tenant"]
    identity.verify_project_id(context, project_id)
    flavor = objects.Flavor.get_by_flavor_id(context, flavor_id)
    if flavor.is_public:
        raise exception.Conflict("Can not add access to a public flavor.")
    flavor.add_access(project_id)
    return json_response(_access_list(flavor))


@validation.body(schemas.remove_tenant_access)
def _remove_tenant_access(req: Request, flavor_id: str):
    context = req.nova_context
    policy.authorize(context, policies.POLICY_ROOT % "remove_tenant_access")
    project_id = req.json_body()["removeTenantAccess"]["tenant"]
    identity.verify_project_id(context, project_id)
    flavor = objects.Flavor.get_by_flavor_id(context, flavor_id)
    flavor.remove_access(project_id)
    return json_response(_access_list(flavor))


_ACTIONS = {
    "addTenantAccess": _add_tenant_access,
    "removeTenantAccess": _remove_tenant_access,
}


def action(req: Request, flavor_id: str):
    """``POST /flavors/{flavor_id}/action``: the one action the body names."""
    body = req.json_body()
    name = next(iter(body), None) if isinstance(body, dict) else None
    handler = _ACTIONS.get(name)
    if handler is None:
        raise exception.Invalid(f"There is no such action: {name}")
    return handler(req, flavor_id)
