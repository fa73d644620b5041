"""``/flavors``: list, show, and (admin) create, update and delete."""

from __future__ import annotations

from oslo_utils import strutils, uuidutils

from nova import exception, objects, policy
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import flavors as schemas
from nova.api.openstack.compute.views import flavors as views
from nova.api.openstack.request import Request, json_response
from nova.objects import flavor as flavor_obj  # noqa: F401  (registers Flavor)
from nova.policies import flavor_access as flavor_access_policies
from nova.policies import flavor_manage as flavor_manage_policies


def _is_public_filter(value: str | None) -> bool | None:
    """The CLI sends the string "None" to mean "public and private"."""
    if value is None:
        return True
    if value.strip().lower() == "none":
        return None
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError as exc:
        raise exception.InvalidFilter(name="is_public", value=value) from exc


def _int_filter(req: Request, name: str) -> int | None:
    value = req.GET.get(name)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError as exc:
        raise exception.InvalidFilter(name=name, value=value) from exc


def _get_flavors(req: Request):
    context = req.nova_context
    filters: dict = {}
    # Only those who may see every flavor choose the visibility.
    if policy.authorize(context, flavor_access_policies.BASE_POLICY_NAME, fatal=False):
        filters["is_public"] = _is_public_filter(req.GET.get("is_public"))
    else:
        filters["is_public"] = True
        filters["disabled"] = False
    for param, key in (("minRam", "min_memory_mb"), ("minDisk", "min_root_gb")):
        value = _int_filter(req, param)
        if value is not None:
            filters[key] = value
    limit, marker = common.limit_and_marker(req)
    try:
        return objects.FlavorList.get_all(
            context,
            filters=filters,
            sort_key=req.GET.get("sort_key") or "flavorid",
            sort_dir=req.GET.get("sort_dir") or "asc",
            limit=limit,
            marker=marker,
        )
    except exception.MarkerNotFound as exc:
        raise exception.Invalid(f"marker [{marker}] not found") from exc


@validation.query(schemas.index_query, "2.1", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def index(req: Request):
    return json_response(views.index(req, _get_flavors(req)))


@validation.query(schemas.index_query, "2.1", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def detail(req: Request):
    return json_response(views.index_detail(req, _get_flavors(req)))


def show(req: Request, flavor_id: str):
    flavor = objects.Flavor.get_by_flavor_id(req.nova_context, flavor_id)
    return json_response(views.show(req, flavor))


def _create(req: Request, description: str | None):
    context = req.nova_context
    policy.authorize(context, flavor_manage_policies.POLICY_ROOT % "create", target={})
    values = req.json_body()["flavor"]
    flavorid = values.get("id")
    if flavorid is None or flavorid == "auto":
        flavorid = uuidutils.generate_uuid()
    flavor = objects.Flavor(
        context=context,
        name=values["name"],
        flavorid=str(flavorid),
        memory_mb=int(values["ram"]),
        vcpus=int(values["vcpus"]),
        root_gb=int(values["disk"]),
        ephemeral_gb=int(values.get("OS-FLV-EXT-DATA:ephemeral", 0)),
        swap=int(values.get("swap", 0)),
        rxtx_factor=float(values.get("rxtx_factor", 1.0)),
        is_public=strutils.bool_from_string(
            values.get("os-flavor-access:is_public", True), strict=True
        ),
        disabled=False,
        vcpu_weight=None,
        description=description,
        extra_specs={},
        projects=[],
    )
    flavor.create()
    return json_response(views.show(req, flavor))


@microversion.version_handler("2.1", "2.54")
@validation.body(schemas.create)
def create(req: Request):
    return _create(req, description=None)


@microversion.version_handler("2.55")
@validation.body(schemas.create_v255)
def create(req: Request):  # noqa: F811
    return _create(req, description=req.json_body()["flavor"].get("description"))


@microversion.version_handler("2.55")
@validation.body(schemas.update)
def update(req: Request, flavor_id: str):
    context = req.nova_context
    policy.authorize(context, flavor_manage_policies.POLICY_ROOT % "update", target={})
    flavor = objects.Flavor.get_by_flavor_id(context, flavor_id)
    flavor.description = req.json_body()["flavor"]["description"]
    flavor.save()
    return json_response(views.show(req, flavor))


def delete(req: Request, flavor_id: str):
    context = req.nova_context
    policy.authorize(context, flavor_manage_policies.POLICY_ROOT % "delete", target={})
    objects.Flavor.get_by_flavor_id(context, flavor_id).destroy()
    return json_response(None, status=202)
