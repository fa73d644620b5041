"""``/servers``: create, list, show, update and delete servers.

Handlers parse the request, authorize, call the flows of
:mod:`nova.compute.api` and build the body with
:mod:`~nova.api.openstack.compute.views.servers`.
"""

from __future__ import annotations

import copy
from typing import Any

from oslo_utils import strutils, timeutils

import nova.conf
from nova import exception, objects, policy
from nova.api.openstack import links, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import servers as schemas
from nova.api.openstack.compute.views import servers as views
from nova.api.openstack.request import Request, json_response
from nova.compute.api import create as server_create
from nova.compute.api import delete as server_delete
from nova.compute.api import power
from nova.compute.api import servers as server_api
from nova.policies import servers as server_policies
from nova.states import vm_states

CONF = nova.conf.CONF

# Filters any caller may use; the rest need allow_all_filters (admins), by
# the microversion that opened them up.
_USER_FILTERS = (
    ("2.1", ("reservation_id", "name", "status", "image", "flavor", "ip")),
    ("2.1", ("changes-since", "all_tenants")),
    ("2.5", ("ip6",)),
    ("2.26", ("tags", "tags-any", "not-tags", "not-tags-any")),
    ("2.66", ("changes-before",)),
    ("2.73", ("locked",)),
    (
        "2.83",
        (
            "availability_zone",
            "config_drive",
            "key_name",
            "created_at",
            "launched_at",
            "terminated_at",
            "power_state",
            "task_state",
            "vm_state",
            "progress",
            "user_id",
        ),
    ),
    ("2.90", ("hostname",)),
)
_PAGING_AND_SORTING = ("limit", "marker", "sort_key", "sort_dir")
_LIST_VALUED = ("status", "vm_state", "task_state", "uuid", "host", "user_id")
# Sorting by where servers run is for admins.
_ADMIN_SORT_KEYS = ("host", "node")


# -- list ---------------------------------------------------------------------


def _user_filters(req: Request) -> set[str]:
    allowed: set[str] = set()
    for version, names in _USER_FILTERS:
        if req.is_supported(version):
            allowed.update(names)
    return allowed


def _sort_params(req: Request, context) -> tuple[list[str], list[str]]:
    keys = req.GET.getall("sort_key") or ["created_at"]
    dirs = req.GET.getall("sort_dir") or ["desc"]
    if len(dirs) > len(keys):
        raise exception.Invalid("Sort direction size exceeds sort key size")
    for direction in dirs:
        if direction not in ("asc", "desc"):
            raise exception.Invalid(f"Invalid sort direction: {direction}")
    dirs += [dirs[-1]] * (len(keys) - len(dirs))
    ignored = (
        schemas.IGNORED_SORT_KEYS_V273
        if req.is_supported("2.73")
        else schemas.IGNORED_SORT_KEYS
    )
    kept = [(k, d) for k, d in zip(keys, dirs, strict=True) if k not in ignored]
    for key, _ in kept:
        if key in _ADMIN_SORT_KEYS and not context.is_admin:
            raise exception.Forbidden(f"Only administrators can sort servers by {key}")
    if not kept:
        return ["created_at"], ["desc"]
    return [k for k, _ in kept], [d for _, d in kept]


def _parse_time(search: dict, name: str) -> None:
    if name in search:
        try:
            search[name] = timeutils.parse_isotime(search[name])
        except ValueError as exc:
            raise exception.Invalid(f"Invalid filter field: {name}.") from exc


def _is_all_tenants(search: dict) -> bool:
    if "all_tenants" not in search:
        return False
    value = search.pop("all_tenants")
    # A bare ?all_tenants means yes.
    if value == "":
        return True
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError as exc:
        raise exception.Invalid(str(exc)) from exc


def _status_filters(req: Request, context, search: dict) -> bool:
    """Turn ``status`` into vm/task state filters; False if none can match."""
    statuses = search.pop("status", None)
    if statuses is None:
        return True
    vm_state_list, task_state_list = common.states_from_status(statuses)
    if not vm_state_list:
        if req.is_supported("2.38"):
            raise exception.InvalidInstanceStatus()
        return False
    search["vm_state"] = vm_state_list
    if "default" not in task_state_list:
        search["task_state"] = task_state_list
    if vm_states.DELETED in vm_state_list:
        if not context.is_admin:
            raise exception.Forbidden("Only administrators may list deleted instances")
        search["deleted"] = True
    return True


def _search_options(req: Request, context, is_detail: bool):
    """The filters of a server list, scoped to what the caller may see;
    None when no server can match."""
    params = req.GET
    search: dict[str, Any] = {}
    for name in params:
        if name in _PAGING_AND_SORTING:
            continue
        values = params.getall(name)
        search[name] = values if name in _LIST_VALUED else values[-1]
    for name in search:
        if name.startswith("_") or name in schemas.JOINED_TABLE_PARAMS:
            raise exception.Invalid(f"Invalid filter field: {name}.")

    if not policy.authorize(
        context, server_policies.SERVERS % "allow_all_filters", fatal=False
    ):
        allowed = _user_filters(req)
        search = {k: v for k, v in search.items() if k in allowed}

    if not _status_filters(req, context, search):
        return None
    _parse_time(search, "changes-since")
    _parse_time(search, "changes-before")
    since, before = search.get("changes-since"), search.get("changes-before")
    if since and before and since > before:
        raise exception.Invalid(
            "The value of changes-since must be less than or equal to changes-before."
        )
    if "deleted" in search:
        search["deleted"] = strutils.bool_from_string(search["deleted"], default=False)
    elif "changes-since" not in search and "changes-before" not in search:
        search["deleted"] = False

    if _is_all_tenants(search):
        rule = "detail:get_all_tenants" if is_detail else "index:get_all_tenants"
        policy.authorize(context, server_policies.SERVERS % rule)
    else:
        # Without all_tenants a caller lists its own project, whatever
        # project it names.
        search.pop("tenant_id", None)
        search["project_id"] = context.project_id

    if "flavor" in search:
        try:
            flavor = objects.Flavor.get_by_flavor_id(context, search.pop("flavor"))
        except exception.FlavorNotFound:
            return None
        search["instance_type_id"] = flavor.id
    if "locked" in search:
        search["locked"] = strutils.bool_from_string(search["locked"], default=False)
    return search


def _list(req: Request, is_detail: bool):
    context = req.nova_context
    rule = "detail" if is_detail else "index"
    policy.authorize(context, server_policies.SERVERS % rule)
    search = _search_options(req, context, is_detail)
    servers = server_api.ServersAPI()
    server_views = views.ServerViews(req, servers)
    if search is None:
        instances = []
    else:
        sort_keys, sort_dirs = _sort_params(req, context)
        limit, marker = common.limit_and_marker(req)
        # changes-since lists what changed, deleted servers included.
        list_context = context
        if "deleted" not in search:
            list_context = copy.copy(context)
            list_context.read_deleted = "yes"
        try:
            instances = servers.get_all(
                list_context,
                search,
                limit,
                marker,
                sort_keys,
                sort_dirs,
                expected_attrs=views.expected_attrs(req) if is_detail else (),
                cell_down_support=req.is_supported("2.69"),
            )
        except exception.MarkerNotFound as exc:
            raise exception.Invalid(f"marker [{marker}] not found") from exc
    if is_detail:
        return json_response(server_views.detail(instances))
    return json_response(server_views.index(instances))


def _list_query(func):
    """The query schemas of both server lists, per microversion."""
    for schema, low, high in (
        (schemas.index_query_v275, "2.75", None),
        (schemas.index_query_v273, "2.73", "2.74"),
        (schemas.index_query_v266, "2.66", "2.72"),
        (schemas.index_query_v226, "2.26", "2.65"),
        (schemas.index_query, "2.1", "2.25"),
    ):
        func = validation.query(schema, low, high)(func)
    return func


@_list_query
def index(req: Request):
    return _list(req, is_detail=False)


@_list_query
def detail(req: Request):
    return _list(req, is_detail=True)


# -- show ---------------------------------------------------------------------


def _get_server(req: Request, server_id: str, rule: str, expected_attrs=()):
    context = req.nova_context
    instance = common.get_server(
        context,
        server_id,
        expected_attrs,
        cell_down_support=req.is_supported("2.69"),
    )
    policy.authorize(
        context,
        server_policies.SERVERS % rule,
        {"project_id": instance.project_id, "user_id": instance.user_id},
    )
    return instance


@validation.query(schemas.show_query, "2.1", "2.101")
@validation.query(schemas.show_query_v2102, "2.102")
def show(req: Request, server_id: str):
    instance = _get_server(req, server_id, "show", views.expected_attrs(req))
    return json_response(views.ServerViews(req, server_api.ServersAPI()).show(instance))


# -- create -------------------------------------------------------------------


def _create_request(req: Request) -> server_create.CreateRequest:
    body = req.json_body()
    server = body["server"]
    hints = body.get("os:scheduler_hints") or body.get("OS-SCH-HNT:scheduler_hints")
    min_count = validation.validate_integer(server.get("min_count", 1), "min_count", 1)
    max_count = validation.validate_integer(
        server.get("max_count", min_count), "max_count", 1
    )
    image_ref = server.get("imageRef") or None
    if image_ref:
        # imageRef may be a URL ending in the image id.
        image_ref = str(image_ref).rstrip("/").rsplit("/", 1)[-1]
    return server_create.CreateRequest(
        name=server["name"],
        flavor_ref=str(server["flavorRef"]),
        image_ref=image_ref,
        min_count=min_count,
        max_count=max_count,
        description=server.get("description"),
        metadata=server.get("metadata") or {},
        user_data=server.get("user_data"),
        key_name=server.get("key_name"),
        availability_zone=server.get("availability_zone"),
        tags=list(server.get("tags") or []),
        block_device_mapping_v2=list(server.get("block_device_mapping_v2") or []),
        legacy_block_device_mapping=list(server.get("block_device_mapping") or []),
        networks=server.get("networks"),
        admin_password=server.get("adminPass"),
        config_drive=strutils.bool_from_string(server.get("config_drive", False)),
        injected_files=common.injected_files(server.get("personality") or []),
        access_ip_v4=server.get("accessIPv4"),
        access_ip_v6=server.get("accessIPv6"),
        auto_disk_config=server.get("OS-DCF:diskConfig") == "AUTO",
        scheduler_hints=dict(hints or {}),
        # An entry without a name asks for nothing, as upstream reads it.
        security_groups=[
            g["name"] for g in server.get("security_groups") or [] if g.get("name")
        ],
        hostname=server.get("hostname"),
        requested_host=server.get("host"),
        requested_hypervisor_hostname=server.get("hypervisor_hostname"),
    )


@validation.body(schemas.create, "2.1", "2.18")
@validation.body(schemas.create_v219, "2.19", "2.31")
@validation.body(schemas.create_v232, "2.32", "2.32")
@validation.body(schemas.create_v233, "2.33", "2.36")
@validation.body(schemas.create_v237, "2.37", "2.41")
@validation.body(schemas.create_v242, "2.42", "2.51")
@validation.body(schemas.create_v252, "2.52", "2.56")
@validation.body(schemas.create_v257, "2.57", "2.62")
@validation.body(schemas.create_v263, "2.63", "2.66")
@validation.body(schemas.create_v267, "2.67", "2.73")
@validation.body(schemas.create_v274, "2.74", "2.89")
@validation.body(schemas.create_v290, "2.90", "2.93")
@validation.body(schemas.create_v294, "2.94")
def create(req: Request):
    request = _create_request(req)
    instances, reservation_id, password = server_create.CreateAPI().create(
        req.nova_context, request
    )
    if strutils.bool_from_string(
        req.json_body()["server"].get("return_reservation_id", False)
    ):
        return json_response({"reservation_id": reservation_id}, status=202)
    first = instances[0]
    body = views.ServerViews(req, server_api.ServersAPI()).create(
        first,
        password if CONF.api.enable_instance_password else None,
        request.security_groups,
    )
    location = links.resource_links(req, views.COLLECTION, first.uuid)[0]["href"]
    return json_response(body, status=202, headers=[("Location", location)])


# -- update -------------------------------------------------------------------

_UPDATABLE = {
    "name": "display_name",
    "description": "display_description",
    "hostname": "hostname",
    "accessIPv4": "access_ip_v4",
    "accessIPv6": "access_ip_v6",
}


@validation.body(schemas.update, "2.1", "2.18")
@validation.body(schemas.update_v219, "2.19", "2.89")
@validation.body(schemas.update_v290, "2.90", "2.93")
@validation.body(schemas.update_v294, "2.94", "2.103")
@validation.body(schemas.update_v2104, "2.104")
def update(req: Request, server_id: str):
    context = req.nova_context
    server = req.json_body()["server"]
    servers = server_api.ServersAPI()
    instance = servers.get(context, server_id, views.expected_attrs(req))
    changes = {
        attribute: server[name]
        for name, attribute in _UPDATABLE.items()
        if name in server
    }
    if "OS-DCF:diskConfig" in server:
        changes["auto_disk_config"] = server["OS-DCF:diskConfig"] == "AUTO"
    if "pinned_availability_zone" in server:
        servers.pin_availability_zone(
            context, instance, server["pinned_availability_zone"]
        )
    instance = servers.update(context, instance, **changes)
    return json_response(views.ServerViews(req, servers).update(instance))


# -- delete -------------------------------------------------------------------


def delete(req: Request, server_id: str):
    context = req.nova_context
    instance = common.get_server(context, server_id)
    server_delete.DeleteAPI().delete(context, instance)
    return json_response(None, status=204)


# -- power actions (POST /servers/{server_id}/action) -------------------------


def start(req: Request, server_id: str):
    context = req.nova_context
    power.PowerAPI().start(context, common.get_server(context, server_id))
    return json_response(None, status=202)


def stop(req: Request, server_id: str):
    context = req.nova_context
    power.PowerAPI().stop(context, common.get_server(context, server_id))
    return json_response(None, status=202)


@validation.body(schemas.reboot)
def reboot(req: Request, server_id: str):
    context = req.nova_context
    reboot_type = req.json_body()["reboot"]["type"].upper()
    power.PowerAPI().reboot(context, common.get_server(context, server_id), reboot_type)
    return json_response(None, status=202)
