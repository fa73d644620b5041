"""A server's addresses by network label, read from its network info cache.

The cache is the list of VIFs the network service last reported, as
upstream stores it: each VIF's ``network`` has a ``label`` and ``subnets``
whose ``ips`` carry fixed addresses and their ``floating_ips``.
"""

from __future__ import annotations

from typing import Any


def _ips_of_vif(vif: dict[str, Any]) -> list[dict[str, Any]]:
    ips = []
    for subnet in (vif.get("network") or {}).get("subnets") or []:
        for fixed in subnet.get("ips") or []:
            ips.append(fixed)
            ips.extend(fixed.get("floating_ips") or [])
    return ips


def _version(ip: dict[str, Any]) -> int:
    if ip.get("version"):
        return int(ip["version"])
    return 6 if ":" in ip["address"] else 4


def addresses(network_info: list[dict[str, Any]] | None) -> dict[str, list[dict]]:
    """``{label: [{"version": 4, "addr": "10.0.0.3"}, ...]}``, fixed
    addresses before their floating ones, in the cache's order."""
    by_label: dict[str, list[dict]] = {}
    for vif in network_info or []:
        label = (vif.get("network") or {}).get("label")
        if label is None:
            continue
        listed = by_label.setdefault(label, [])
        listed.extend(
            {"version": _version(ip), "addr": ip["address"]} for ip in _ips_of_vif(vif)
        )
    return by_label
