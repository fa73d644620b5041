"""``GET /servers/{server_id}/diagnostics``: the hypervisor's statistics
of a running guest, free-form before 2.48, in a fixed shape from 2.48."""

from __future__ import annotations

from nova import exception
from nova.api.openstack.compute import common
from nova.api.openstack.request import Request, json_response
from nova.compute.api import guest
from nova.policies import server_diagnostics as policies

# The 2.48 shape: these keys, always, null when the driver cannot tell.
_FIELDS = (
    "state",
    "driver",
    "hypervisor",
    "hypervisor_os",
    "uptime",
    "config_drive",
    "num_cpus",
    "num_nics",
    "num_disks",
)
_DETAILS = {
    "memory_details": ("maximum", "used"),
    "cpu_details": ("id", "time", "utilisation"),
    "nic_details": (
        "mac_address",
        "rx_octets",
        "rx_errors",
        "rx_drop",
        "rx_packets",
        "rx_rate",
        "tx_octets",
        "tx_errors",
        "tx_drop",
        "tx_packets",
        "tx_rate",
    ),
    "disk_details": (
        "read_bytes",
        "read_requests",
        "write_bytes",
        "write_requests",
        "errors_count",
    ),
}


def _pick(values: dict, keys) -> dict:
    return {key: values.get(key) for key in keys}


def _standard_view(diagnostics: dict) -> dict:
    body = _pick(diagnostics, _FIELDS)
    body["memory_details"] = _pick(
        diagnostics.get("memory_details") or {}, _DETAILS["memory_details"]
    )
    for name in ("cpu_details", "nic_details", "disk_details"):
        body[name] = [_pick(item, _DETAILS[name]) for item in diagnostics.get(name, [])]
    return body


def show(req: Request, server_id: str):
    context = req.nova_context
    instance = common.get_server(context, server_id)
    try:
        if req.is_supported("2.48"):
            body = _standard_view(
                guest.GuestAPI().get_instance_diagnostics(
                    context, instance, policies.BASE_POLICY_NAME
                )
            )
        else:
            body = guest.GuestAPI().get_diagnostics(
                context, instance, policies.BASE_POLICY_NAME
            )
    except NotImplementedError as exc:
        raise exception.FeatureNotSupported() from exc
    return json_response(body)
