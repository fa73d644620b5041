"""A server's addresses by network label, read from its network info cache.

The cache is the list of VIFs the network service last reported, as
upstream stores it: each VIF's ``network`` has a ``label`` and ``subnets``
whose ``ips`` carry fixed addresses and their ``floating_ips``.
"""

from __future__ import annotations

from typing import Any


def _ips_of_vif(vif: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """Each address of the VIF with its kind (fixed or floating)."""
    ips = []
    for subnet in (vif.get("network") or {}).get("subnets") or []:
        for fixed in subnet.get("ips") or []:
            ips.append((fixed, "fixed"))
            ips.extend((ip, "floating") for ip in fixed.get("floating_ips") or [])
    return ips


def _version(ip: dict[str, Any]) -> int:
    if ip.get("version"):
        return int(ip["version"])
    return 6 if ":" in ip["address"] else 4


def addresses(
    network_info: list[dict[str, Any]] | None, detailed: bool = False
) -> dict[str, list[dict]]:
    """``{label: [{"version": 4, "addr": "10.0.0.3"}, ...]}``, fixed
    addresses before their floating ones, in the cache's order.

    ``detailed`` (the server body, not ``/ips``) adds each address's
    ``OS-EXT-IPS:type`` (fixed or floating) and its port's MAC address as
    ``OS-EXT-IPS-MAC:mac_addr``.
    """
    by_label: dict[str, list[dict]] = {}
    for vif in network_info or []:
        label = (vif.get("network") or {}).get("label")
        if label is None:
            continue
        listed = by_label.setdefault(label, [])
        for ip, kind in _ips_of_vif(vif):
            entry = {"version": _version(ip), "addr": ip["address"]}
            if detailed:
                entry["OS-EXT-IPS:type"] = kind
                entry["OS-EXT-IPS-MAC:mac_addr"] = vif.get("address")
            listed.append(entry)
    return by_label
