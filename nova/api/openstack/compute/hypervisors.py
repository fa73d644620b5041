"""``/os-hypervisors``: the compute nodes of every cell, for admins.

Before 2.53 a hypervisor's id is its database id (unique only within a
cell); from 2.53 it is the node's uuid, and the search and servers
sub-resources give way to query parameters. 2.88 drops the resource
counts (Placement has them) and the statistics and uptime resources.
"""

from __future__ import annotations

import json

from oslo_utils import strutils, uuidutils

from nova import exception, policy
from nova.api.openstack import links, microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import hypervisors as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute import host_api
from nova.compute.api import zones
from nova.policies import hypervisors as hv_policies

# Resource counts shown until 2.88.
_USAGE_FIELDS = (
    "vcpus",
    "memory_mb",
    "local_gb",
    "vcpus_used",
    "memory_mb_used",
    "local_gb_used",
    "free_ram_mb",
    "free_disk_gb",
    "current_workload",
    "running_vms",
    "disk_available_least",
)


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, hv_policies.BASE_POLICY_NAME % rule, target={})
    return context


def _id(req: Request, node) -> str | int:
    return node.uuid if req.is_supported("2.53") else node.id


def _cpu_info(req: Request, node):
    if not req.is_supported("2.28"):
        return node.cpu_info
    try:
        return json.loads(node.cpu_info or "{}")
    except ValueError:
        return {}


def _view(req: Request, node, service, detail: bool, servers=None, uptime=None) -> dict:
    body = {
        "id": _id(req, node),
        "hypervisor_hostname": node.hypervisor_hostname,
        "state": "up" if zones.service_is_up(service) else "down",
        "status": "disabled" if service.disabled else "enabled",
    }
    if detail:
        body.update(
            hypervisor_type=node.hypervisor_type,
            hypervisor_version=node.hypervisor_version,
            host_ip=str(node.host_ip) if node.host_ip else None,
            cpu_info=_cpu_info(req, node),
            service={
                "host": node.host,
                "id": service.uuid if req.is_supported("2.53") else service.id,
                "disabled_reason": service.disabled_reason,
            },
        )
        if req.is_supported("2.88"):
            # Only a single hypervisor's is asked of its compute; a list
            # would cost an RPC call per node.
            body["uptime"] = uptime
        else:
            body.update({name: getattr(node, name) for name in _USAGE_FIELDS})
    if servers is not None:
        # Until 2.75 a hypervisor without servers had no "servers" key.
        if servers or req.is_supported("2.75"):
            body["servers"] = [{"name": s.name, "uuid": s.uuid} for s in servers]
    return body


def _with_servers(req: Request) -> bool:
    if not req.is_supported("2.53"):
        return False
    value = req.GET.get("with_servers", "false")
    return strutils.bool_from_string(value, strict=True)


def _matching(context, pattern: str) -> list:
    found = [
        (node, service)
        for node, service in host_api.compute_nodes(context)
        if pattern in (node.hypervisor_hostname or "")
    ]
    if not found:
        raise exception.NotFound(f"No hypervisor matching '{pattern}' could be found.")
    return found


def _page(req: Request, pairs: list) -> list:
    if not req.is_supported("2.33"):
        return pairs
    try:
        return common.page_of(req, pairs, lambda pair: _id(req, pair[0]))
    except exception.MarkerNotFound as exc:
        raise exception.Invalid(f"marker [{req.GET['marker']}] not found") from exc


def _list(req: Request, detail: bool, path: str):
    context = _authorize(req, "list-detail" if detail else "list")
    pattern = req.GET.get("hypervisor_hostname_pattern")
    if pattern is not None and req.is_supported("2.53"):
        if "limit" in req.GET or "marker" in req.GET:
            raise exception.Invalid(
                "Paging over hypervisors with the hypervisor_hostname_pattern "
                "query parameter is not supported."
            )
        pairs = _matching(context, pattern)
    else:
        pairs = _page(req, host_api.compute_nodes(context))
    with_servers = _with_servers(req)
    hypervisors = [
        _view(
            req,
            node,
            service,
            detail,
            host_api.instances_on_host(node) if with_servers else None,
        )
        for node, service in pairs
    ]
    body = {"hypervisors": hypervisors}
    if req.is_supported("2.33"):
        next_link = links.collection_links(req, path, hypervisors, "id")
        if next_link:
            body["hypervisors_links"] = next_link
    return json_response(body)


def _list_query(func):
    func = validation.query(schemas.index_query, "2.1", "2.32")(func)
    func = validation.query(schemas.index_query_v233, "2.33", "2.52")(func)
    return validation.query(schemas.index_query_v253, "2.53")(func)


@_list_query
def index(req: Request):
    return _list(req, detail=False, path="os-hypervisors")


@_list_query
def detail(req: Request):
    return _list(req, detail=True, path="os-hypervisors/detail")


def _find(req: Request, context, hypervisor_id: str):
    if req.is_supported("2.53"):
        if not uuidutils.is_uuid_like(hypervisor_id):
            raise exception.Invalid(f"Invalid uuid {hypervisor_id}")
        key = "uuid"
    else:
        key = "id"
    for node, service in host_api.compute_nodes(context):
        if str(getattr(node, key)) == hypervisor_id:
            return node, service
    raise exception.NotFound(
        f"Hypervisor with ID '{hypervisor_id}' could not be found."
    )


@validation.query(schemas.show_query, "2.1", "2.52")
@validation.query(schemas.show_query_v253, "2.53")
def show(req: Request, hypervisor_id: str):
    context = _authorize(req, "show")
    node, service = _find(req, context, hypervisor_id)
    servers = host_api.instances_on_host(node) if _with_servers(req) else None
    uptime = None
    if req.is_supported("2.88"):
        try:
            uptime = host_api.get_host_uptime(node, service)
        except (NotImplementedError, exception.ComputeServiceUnavailable):
            pass  # shown as null: the hypervisor is still there
    body = _view(req, node, service, True, servers, uptime)
    return json_response({"hypervisor": body})


@microversion.version_handler("2.1", "2.87")
def uptime(req: Request, hypervisor_id: str):
    context = _authorize(req, "uptime")
    node, service = _find(req, context, hypervisor_id)
    try:
        host_uptime = host_api.get_host_uptime(node, service)
    except exception.ComputeServiceUnavailable as exc:
        raise exception.Invalid(exc.format_message()) from exc
    except NotImplementedError as exc:
        raise exception.FeatureNotSupported() from exc
    body = _view(req, node, service, False)
    body["uptime"] = host_uptime
    return json_response({"hypervisor": body})


@microversion.version_handler("2.1", "2.52")
def search(req: Request, hypervisor_hostname_pattern: str):
    context = _authorize(req, "search")
    pairs = _matching(context, hypervisor_hostname_pattern)
    return json_response({"hypervisors": [_view(req, n, s, False) for n, s in pairs]})


@microversion.version_handler("2.1", "2.52")
def servers(req: Request, hypervisor_hostname_pattern: str):
    context = _authorize(req, "servers")
    pairs = _matching(context, hypervisor_hostname_pattern)
    return json_response(
        {
            "hypervisors": [
                _view(req, n, s, False, host_api.instances_on_host(n)) for n, s in pairs
            ]
        }
    )


@microversion.version_handler("2.1", "2.87")
def statistics(req: Request):
    """Sums over the nodes of enabled compute services."""
    context = _authorize(req, "statistics")
    nodes = [n for n, s in host_api.compute_nodes(context) if not s.disabled]
    stats = {
        name: sum(getattr(node, name) or 0 for node in nodes) for name in _USAGE_FIELDS
    }
    return json_response({"hypervisor_statistics": {"count": len(nodes), **stats}})
