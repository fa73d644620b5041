"""``/servers/{server_id}/ips``: a server's addresses, by network."""

from __future__ import annotations

from nova import exception
from nova.api.openstack.compute import common
from nova.api.openstack.compute.views.addresses import addresses
from nova.api.openstack.request import Request, json_response
from nova.policies import ips as policies


def _addresses(req: Request, server_id: str, rule: str) -> dict[str, list[dict]]:
    instance = common.get_instance(
        req, server_id, policies.POLICY_ROOT % rule, ["info_cache"]
    )
    cache = instance.info_cache if "info_cache" in instance else None
    return addresses(cache.network_info if cache is not None else None)


def index(req: Request, server_id: str):
    return json_response({"addresses": _addresses(req, server_id, "index")})


def show(req: Request, server_id: str, network_label: str):
    by_label = _addresses(req, server_id, "show")
    if network_label not in by_label:
        raise exception.NotFound("Instance is not a member of specified network")
    return json_response({network_label: by_label[network_label]})
