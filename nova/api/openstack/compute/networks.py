"""``/os-networks`` and ``/os-tenant-networks``: the networks a project may
use, proxied from Neutron (GET only; gone from 2.36, as upstream). The
nova-network actions that created, deleted or changed networks answer 410
(see :mod:`~nova.api.openstack.compute.removed`).
"""

from __future__ import annotations

from typing import Any

from nova import policy
from nova.api.openstack import microversion
from nova.api.openstack.request import Request, json_response
from nova.network import networks as networks_api
from nova.policies import networks as policies

PROXY_MAX_VERSION = "2.35"

# What os-networks showed under nova-network; Neutron gives only the first
# two, the others are null (an admin sees more of them, all null too).
_FIELDS = (
    "cidr", "netmask", "gateway", "broadcast", "dns1", "dns2", "cidr_v6",
    "gateway_v6", "netmask_v6",
)  # fmt: skip
_ADMIN_FIELDS = (
    "created_at", "updated_at", "deleted_at", "deleted", "injected", "bridge",
    "vlan", "vpn_public_address", "vpn_public_port", "vpn_private_address",
    "dhcp_start", "project_id", "host", "bridge_interface", "multi_host",
    "priority", "rxtx_base", "mtu", "dhcp_server", "enable_dhcp",
    "share_address",
)  # fmt: skip


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, rule, {"project_id": context.project_id})
    return context


def _network(context, network: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = {"id": network["id"], "label": network.get("name")}
    fields = _FIELDS + (_ADMIN_FIELDS if context.is_admin else ())
    view.update(dict.fromkeys(fields))
    return view


def _tenant_network(network: dict[str, Any]) -> dict[str, Any]:
    return {"id": network["id"], "cidr": None, "label": network.get("name")}


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def index(req: Request):
    context = _authorize(req, policies.NETWORKS_LIST)
    found = networks_api.NetworksAPI().list(context)
    return json_response({"networks": [_network(context, n) for n in found]})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def show(req: Request, network_id: str):
    context = _authorize(req, policies.NETWORKS_VIEW)
    network = networks_api.NetworksAPI().get(context, network_id)
    return json_response({"network": _network(context, network)})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def tenant_index(req: Request):
    context = _authorize(req, policies.TENANT_NETWORKS_LIST)
    found = networks_api.NetworksAPI().list(context)
    return json_response({"networks": [_tenant_network(n) for n in found]})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def tenant_show(req: Request, network_id: str):
    context = _authorize(req, policies.TENANT_NETWORKS_SHOW)
    network = networks_api.NetworksAPI().get(context, network_id)
    return json_response({"network": _tenant_network(network)})


@microversion.version_handler("2.1", PROXY_MAX_VERSION)
def floating_ip_pools(req: Request):
    context = _authorize(req, policies.FLOATING_IP_POOLS)
    pools = networks_api.NetworksAPI().floating_ip_pools(context)
    return json_response({"floating_ip_pools": [{"name": name} for name in pools]})
