"""``/os-quota-sets``: a project's (or a user's) limits, usage and defaults.

Which resources a body lists depends on the microversion: the nova-network
ones (``floating_ips`` ...) go at 2.36, injected files at 2.57.
"""

from __future__ import annotations

from oslo_utils import strutils

from nova import exception, policy, quota
from nova.api.openstack import identity, validation
from nova.api.openstack.compute.schemas import quota_sets as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import quota_sets as quota_policies


def shown_resources(req: Request, with_server_groups: bool = True) -> list[str]:
    """The resources a quota body has at the request's microversion."""
    hidden = set() if with_server_groups else set(schemas.SERVER_GROUP_RESOURCES)
    if req.is_supported("2.57"):
        hidden.update(schemas.INJECTED_FILE_RESOURCES)
    if req.is_supported("2.36"):
        hidden.update(quota.LEGACY_NETWORK_DEFAULTS)
    return [r for r in quota.RESOURCES if r not in hidden]


def limits_body(req: Request, limits: dict, with_server_groups: bool = True) -> dict:
    """``{resource: limit}`` for the resources shown at this version."""
    return {name: limits[name] for name in shown_resources(req, with_server_groups)}


def _user_id(req: Request) -> str | None:
    return req.GET.get("user_id") or None


def _authorize(req: Request, rule: str, project_id: str) -> None:
    policy.authorize(
        req.nova_context,
        quota_policies.POLICY_ROOT % rule,
        {"project_id": project_id, "user_id": _user_id(req)},
    )


def _detail_body(req: Request, project_id: str, user_id: str | None) -> dict:
    context = req.nova_context
    limits = quota.get_limits(context, project_id, user_id)
    usages = quota.get_usages(context, project_id, user_id)
    return {
        name: {"limit": limit, "in_use": usages.get(name, 0), "reserved": 0}
        for name, limit in limits_body(req, limits).items()
    }


def _query(func):
    func = validation.query(schemas.query, "2.1", "2.74")(func)
    return validation.query(schemas.query_v275, "2.75")(func)


@_query
def show(req: Request, tenant_id: str):
    _authorize(req, "show", tenant_id)
    identity.verify_project_id(req.nova_context, tenant_id)
    limits = quota.get_limits(req.nova_context, tenant_id, _user_id(req))
    return json_response({"quota_set": {"id": tenant_id, **limits_body(req, limits)}})


@_query
def detail(req: Request, tenant_id: str):
    _authorize(req, "detail", tenant_id)
    identity.verify_project_id(req.nova_context, tenant_id)
    body = _detail_body(req, tenant_id, _user_id(req))
    return json_response({"quota_set": {"id": tenant_id, **body}})


@validation.query(schemas.defaults_query_v275, "2.75")
def defaults(req: Request, tenant_id: str):
    _authorize(req, "defaults", tenant_id)
    identity.verify_project_id(req.nova_context, tenant_id)
    limits = quota.class_limits(req.nova_context)
    return json_response({"quota_set": {"id": tenant_id, **limits_body(req, limits)}})


def _check_new_limits(
    context, project_id: str, user_id: str | None, new: dict[str, int]
) -> None:
    """Refuse limits under current usage, and user limits over the
    project's."""
    usages = quota.get_usages(context, project_id, user_id)
    for resource, limit in new.items():
        used = usages.get(resource, 0)
        if limit != quota.UNLIMITED and limit < used:
            raise exception.Invalid(
                f"Quota limit {limit} for {resource} must be greater than or "
                f"equal to already used and reserved {used}."
            )
    if user_id is None:
        return
    project_limits = quota.get_limits(context, project_id)
    for resource, limit in new.items():
        ceiling = project_limits[resource]
        if ceiling != quota.UNLIMITED and (limit == quota.UNLIMITED or limit > ceiling):
            raise exception.Invalid(
                f"Quota limit {limit} for {resource} must be less than or equal "
                f"to {ceiling}."
            )


@_query
@validation.body(schemas.update, "2.1", "2.35")
@validation.body(schemas.update_v236, "2.36", "2.56")
@validation.body(schemas.update_v257, "2.57")
def update(req: Request, tenant_id: str):
    context = req.nova_context
    _authorize(req, "update", tenant_id)
    identity.verify_project_id(context, tenant_id)
    user_id = _user_id(req)
    validation.check_string_length(tenant_id, "project_id")
    if user_id is not None:
        validation.check_string_length(user_id, "user_id")
    values = dict(req.json_body()["quota_set"])
    force = strutils.bool_from_string(values.pop("force", False))
    new = {
        name: int(value) for name, value in values.items() if name in quota.RESOURCES
    }
    if user_id is not None:
        # A user's limit per server group means nothing: groups are counted.
        new.pop("server_group_members", None)
    if not force:
        _check_new_limits(context, tenant_id, user_id, new)
    quota.set_limits(context, tenant_id, new, user_id=user_id)
    limits = quota.get_limits(context, tenant_id, user_id)
    return json_response({"quota_set": limits_body(req, limits)})


@_query
def delete(req: Request, tenant_id: str):
    _authorize(req, "delete", tenant_id)
    quota.delete_limits(req.nova_context, tenant_id, _user_id(req))
    return json_response(None, status=202)
