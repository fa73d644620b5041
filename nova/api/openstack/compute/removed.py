"""APIs upstream removed: they answer 410 Gone at every microversion.

The table lists each removed resource, the methods it served and the
release that removed it, so a client that still calls one learns it is
gone rather than that it never existed (which a 404 would say).
"""

from __future__ import annotations

from nova import exception
from nova.api.openstack.request import Request

# URL template (below /v2.1) -> (methods, the upstream release that removed it)
REMOVED_APIS: dict[str, tuple[tuple[str, ...], str]] = {
    # cloudpipe: Pike (16.0.0)
    "/os-cloudpipe": (("GET", "POST"), "16.0.0"),
    "/os-cloudpipe/configure-project": (("PUT",), "16.0.0"),
    # nova-network proxies and certificates: Rocky (18.0.0)
    "/os-certificates": (("POST",), "18.0.0"),
    "/os-certificates/root": (("GET",), "18.0.0"),
    "/os-fping": (("GET",), "18.0.0"),
    "/os-fping/{id}": (("GET",), "18.0.0"),
    "/os-fixed-ips/{id}": (("GET",), "18.0.0"),
    "/os-fixed-ips/{id}/action": (("POST",), "18.0.0"),
    "/os-floating-ips-bulk": (("GET", "POST"), "18.0.0"),
    "/os-floating-ips-bulk/{id}": (("GET", "PUT"), "18.0.0"),
    "/os-floating-ip-dns": (("GET",), "18.0.0"),
    "/os-floating-ip-dns/{domain}": (("PUT", "DELETE"), "18.0.0"),
    "/os-floating-ip-dns/{domain}/entries/{name}": (("GET", "PUT", "DELETE"), "18.0.0"),
    "/os-networks": (("POST",), "18.0.0"),
    "/os-networks/add": (("POST",), "18.0.0"),
    "/os-networks/{network_id}": (("DELETE",), "18.0.0"),
    "/os-networks/{network_id}/action": (("POST",), "18.0.0"),
    "/os-tenant-networks": (("POST",), "18.0.0"),
    "/os-tenant-networks/{network_id}": (("DELETE",), "18.0.0"),
    "/servers/{server_id}/os-virtual-interfaces": (("GET",), "18.0.0"),
    # cells v1: Train (20.0.0)
    "/os-cells": (("GET", "POST"), "20.0.0"),
    "/os-cells/detail": (("GET",), "20.0.0"),
    "/os-cells/info": (("GET",), "20.0.0"),
    "/os-cells/capacities": (("GET",), "20.0.0"),
    "/os-cells/sync_instances": (("POST",), "20.0.0"),
    "/os-cells/{id}": (("GET", "PUT", "DELETE"), "20.0.0"),
    "/os-cells/{id}/capacities": (("GET",), "20.0.0"),
    # nova-console and nova-network leftovers: Ussuri (21.0.0)
    "/servers/{server_id}/consoles": (("GET", "POST"), "21.0.0"),
    "/servers/{server_id}/consoles/{id}": (("GET", "DELETE"), "21.0.0"),
    "/os-security-group-default-rules": (("GET", "POST"), "21.0.0"),
    "/os-security-group-default-rules/{id}": (("GET", "DELETE"), "21.0.0"),
    # XenAPI guest agents: Victoria (22.0.0)
    "/os-agents": (("GET", "POST"), "22.0.0"),
    "/os-agents/{id}": (("PUT", "DELETE"), "22.0.0"),
}


def gone(req: Request, **_params):
    """Answer a removed API: 410 Gone."""
    raise exception.Gone()


def routes(prefix: str, live: dict[str, dict]) -> dict[str, dict]:
    """The removed APIs as entries of the routing table below ``prefix``,
    beside the methods of ``live`` that a URL still serves (``GET
    /os-networks`` lives on, ``POST`` is gone)."""
    return {
        prefix + template: {
            **live.get(prefix + template, {}),
            **dict.fromkeys(methods, gone),
        }
        for template, (methods, _release) in REMOVED_APIS.items()
    }
