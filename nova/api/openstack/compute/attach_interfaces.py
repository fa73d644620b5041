"""``/servers/{server_id}/os-interface``: a server's ports, and hot-plugging
one in or out.

The list and show read Neutron's ports of the server; an attach waits for
the server's host to plug the port and answers with it; a detach is
accepted (202) and done on the host. 2.49 lets an attach tag the device,
2.70 shows the tag.
"""

from __future__ import annotations

from typing import Any

from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import attach_interfaces as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import interfaces as interfaces_api


def _view(req: Request, port: dict[str, Any], tags: dict[str, str]) -> dict:
    view = {
        "net_id": port["network_id"],
        "port_id": port["id"],
        "mac_addr": port["mac_address"],
        "port_state": port["status"],
        "fixed_ips": [
            {"subnet_id": ip["subnet_id"], "ip_address": ip["ip_address"]}
            for ip in port.get("fixed_ips", [])
        ],
    }
    if req.is_supported("2.70"):
        view["tag"] = tags.get(port["id"])
    return view


def _tags(instance) -> dict[str, str]:
    """Port id -> the tag its attach gave it, as the info cache keeps it."""
    cache = instance.info_cache if "info_cache" in instance else None
    return {
        vif["id"]: vif["meta"]["tag"]
        for vif in (cache.network_info if cache is not None else None) or ()
        if vif.get("meta", {}).get("tag")
    }


def _server(req: Request, server_id: str):
    return common.get_server(req.nova_context, server_id, ["info_cache"])


def index(req: Request, server_id: str):
    instance = _server(req, server_id)
    ports = interfaces_api.InterfacesAPI().list_ports(req.nova_context, instance)
    tags = _tags(instance)
    return json_response(
        {"interfaceAttachments": [_view(req, port, tags) for port in ports]}
    )


def show(req: Request, server_id: str, port_id: str):
    instance = _server(req, server_id)
    port = interfaces_api.InterfacesAPI().show_port(req.nova_context, instance, port_id)
    return json_response({"interfaceAttachment": _view(req, port, _tags(instance))})


@validation.body(schemas.create, "2.1", "2.48")
@validation.body(schemas.create_v249, "2.49")
def create(req: Request, server_id: str):
    attachment = req.json_body().get("interfaceAttachment") or {}
    network_id = attachment.get("net_id")
    port_id = attachment.get("port_id")
    fixed_ips = attachment.get("fixed_ips")
    if network_id and port_id:
        raise exception.ValidationError(
            detail="Must not input both network_id and port_id"
        )
    if fixed_ips and not network_id:
        raise exception.ValidationError(
            detail="Must input network_id when request IP address"
        )
    instance = _server(req, server_id)
    api = interfaces_api.InterfacesAPI()
    try:
        vif = api.attach_interface(
            req.nova_context,
            instance,
            network_id=network_id,
            port_id=port_id,
            requested_ip=fixed_ips[0]["ip_address"] if fixed_ips else None,
            tag=attachment.get("tag"),
        )
    except exception.FixedIpAlreadyInUse as exc:
        # A create answers 400 for it; an attach, as upstream, 409.
        raise exception.Conflict(exc.format_message()) from exc
    port = api.show_port(req.nova_context, instance, vif["id"])
    tags = {vif["id"]: attachment["tag"]} if attachment.get("tag") else {}
    return json_response({"interfaceAttachment": _view(req, port, tags)})


def delete(req: Request, server_id: str, port_id: str):
    instance = _server(req, server_id)
    interfaces_api.InterfacesAPI().detach_interface(req.nova_context, instance, port_id)
    return json_response(None, status=202)
