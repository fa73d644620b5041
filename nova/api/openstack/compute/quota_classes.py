"""``/os-quota-class-sets``: limits of a quota class (``default`` counts).

Server group resources appear at 2.50 (when the nova-network ones went
from this API); injected files go at 2.57.
"""

from __future__ import annotations

from nova import policy, quota
from nova.api.openstack import validation
from nova.api.openstack.compute import quota_sets
from nova.api.openstack.compute.schemas import quota_sets as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import quota_class_sets as class_policies


def _body(req: Request, limits: dict) -> dict:
    shown = quota_sets.limits_body(
        req, limits, with_server_groups=req.is_supported("2.50")
    )
    if req.is_supported("2.50"):
        for name in quota.LEGACY_NETWORK_DEFAULTS:
            shown.pop(name, None)
    return shown


def show(req: Request, id: str):  # noqa: A002 - the route's parameter
    context = req.nova_context
    policy.authorize(context, class_policies.POLICY_ROOT % "show", {"quota_class": id})
    limits = quota.class_limits(context, id)
    return json_response({"quota_class_set": {"id": id, **_body(req, limits)}})


@validation.body(schemas.class_update, "2.1", "2.49")
@validation.body(schemas.class_update_v250, "2.50", "2.56")
@validation.body(schemas.class_update_v257, "2.57")
def update(req: Request, id: str):  # noqa: A002 - the route's parameter
    context = req.nova_context
    policy.authorize(
        context, class_policies.POLICY_ROOT % "update", {"quota_class": id}
    )
    validation.check_string_length(id, "quota_class_name")
    values = req.json_body()["quota_class_set"]
    quota.set_class_limits(
        context,
        id,
        {name: int(v) for name, v in values.items() if name in quota.RESOURCES},
    )
    limits = quota.class_limits(context, id)
    return json_response({"quota_class_set": _body(req, limits)})
