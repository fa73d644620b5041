"""An instance's network info: its VIFs, as the network service reported them.

Nova keeps it as JSON in ``instance_info_caches.network_info`` and hands it
to virt drivers as their ``network_info`` argument. The JSON has upstream's
shape, so a cache reads the same whichever nova wrote it::

    [{"id": <port id>, "address": <MAC>, "type": "ovs", "devname": "tap...",
      "details": {...}, "ovs_interfaceid": ..., "qbh_params": null,
      "qbg_params": null, "active": true, "vnic_type": "normal",
      "profile": {...}, "preserve_on_delete": false, "meta": {...},
      "network": {"id": ..., "bridge": "br-int", "label": "private",
                  "meta": {"mtu": 1450, ...},
                  "subnets": [{"cidr": "10.0.0.0/24", "version": 4,
                               "gateway": <IP>, "dns": [<IP>],
                               "routes": [<Route>], "ips": [<FixedIP>],
                               "meta": {...}}]}}]

where an IP is ``{"address", "type", "version", "meta"}``, a FixedIP is an
IP with ``floating_ips`` (a list of IPs) and a Route is ``{"cidr",
"gateway": <IP>, "interface", "meta"}``.

Every part is a dict, so code reading the cache as plain JSON reads the
model the same way. A part always holds its known keys: a missing or null
one takes its default, and keys it does not know go into its ``meta``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import netaddr

VNIC_TYPE_NORMAL = "normal"


def _none() -> None:
    return None


def _false() -> bool:
    return False


def _version_of(address_or_cidr: str | None) -> int | None:
    """4 or 6; None when there is no address or it does not parse (a cache
    is read as it is, not refused)."""
    if not address_or_cidr:
        return None
    try:
        return netaddr.IPNetwork(address_or_cidr).version
    except (netaddr.AddrFormatError, ValueError, TypeError):
        return None


class _Part(dict):
    """A dict with the known keys of its kind; others are kept in ``meta``."""

    # Each known key and the function making its default.
    DEFAULTS: ClassVar[dict[str, Callable[[], Any]]] = {}

    def __init__(self, **values: Any) -> None:
        super().__init__()
        meta = dict(values.pop("meta", None) or {})
        for key, default in self.DEFAULTS.items():
            value = values.pop(key, None)
            self[key] = default() if value is None else value
        meta.update(values)
        self["meta"] = meta


class IP(_Part):
    """An address; ``version`` comes from the address when not given."""

    DEFAULTS = {"address": _none, "type": _none, "version": _none}

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self["version"] is None:
            self["version"] = _version_of(self["address"])

    @classmethod
    def hydrate(cls, data: dict[str, Any] | None) -> IP | None:
        """The IP of its JSON form; None for none."""
        return None if data is None else cls(**data)


class FixedIP(IP):
    """An address of a port, with the floating addresses mapped onto it."""

    DEFAULTS = {**IP.DEFAULTS, "floating_ips": list}

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self["type"] is None:
            self["type"] = "fixed"

    @classmethod
    def hydrate(cls, data: dict[str, Any] | None) -> FixedIP | None:
        if data is None:
            return None
        fixed = cls(**data)
        fixed["floating_ips"] = [IP(**ip) for ip in fixed["floating_ips"]]
        return fixed


class Route(_Part):
    """A static route of a subnet."""

    DEFAULTS = {"cidr": _none, "gateway": _none, "interface": _none}

    @classmethod
    def hydrate(cls, data: dict[str, Any]) -> Route:
        route = cls(**data)
        route["gateway"] = IP.hydrate(route["gateway"])
        return route


class Subnet(_Part):
    """A subnet and the port's addresses on it; ``version`` comes from the
    CIDR when not given."""

    DEFAULTS = {
        "cidr": _none,
        "dns": list,
        "gateway": _none,
        "ips": list,
        "routes": list,
        "version": _none,
    }

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self["version"] is None:
            self["version"] = _version_of(self["cidr"])

    @classmethod
    def hydrate(cls, data: dict[str, Any]) -> Subnet:
        subnet = cls(**data)
        subnet["dns"] = [IP(**dns) for dns in subnet["dns"]]
        subnet["gateway"] = IP.hydrate(subnet["gateway"])
        subnet["ips"] = [FixedIP.hydrate(ip) for ip in subnet["ips"]]
        subnet["routes"] = [Route.hydrate(route) for route in subnet["routes"]]
        return subnet


class Network(_Part):
    """The network a VIF is on; its ``meta`` carries ``mtu`` and the like."""

    DEFAULTS = {"id": _none, "bridge": _none, "label": _none, "subnets": list}

    @classmethod
    def hydrate(cls, data: dict[str, Any] | None) -> Network | None:
        """The network of its JSON form; None for none."""
        if not data:
            return None
        network = cls(**data)
        network["subnets"] = [Subnet.hydrate(subnet) for subnet in network["subnets"]]
        return network


class VIF(_Part):
    """A virtual interface of the instance: one port of the network service."""

    DEFAULTS = {
        "id": _none,
        "address": _none,
        "network": _none,
        "type": _none,
        "details": dict,
        "devname": _none,
        "ovs_interfaceid": _none,
        "qbh_params": _none,
        "qbg_params": _none,
        "active": _false,
        "vnic_type": lambda: VNIC_TYPE_NORMAL,
        "profile": _none,
        "preserve_on_delete": _false,
    }

    @classmethod
    def hydrate(cls, data: dict[str, Any]) -> VIF:
        vif = cls(**data)
        vif["network"] = Network.hydrate(vif["network"])
        return vif

    def fixed_ips(self) -> list[FixedIP]:
        """Its fixed addresses, subnet by subnet."""
        if not self["network"]:
            return []
        return [
            ip
            for subnet in self["network"]["subnets"]
            for ip in subnet["ips"]
            if ip["type"] == "fixed"
        ]

    def floating_ips(self) -> list[IP]:
        """The floating addresses mapped onto its fixed ones."""
        return [floating for ip in self.fixed_ips() for floating in ip["floating_ips"]]


class NetworkInfo(list[VIF]):
    """The VIFs of an instance, in the order the guest sees them."""

    @classmethod
    def hydrate(cls, data: str | Iterable[dict[str, Any]] | None) -> NetworkInfo:
        """The model of a cache's JSON text or of its parsed list; None or an
        empty text is no VIFs."""
        if isinstance(data, str):
            data = json.loads(data) if data else None
        return cls(VIF.hydrate(vif) for vif in data or ())

    def json(self) -> str:
        """The JSON text a cache stores."""
        return json.dumps(self)

    def fixed_ips(self) -> list[FixedIP]:
        """The fixed addresses of all VIFs, in VIF order."""
        return [ip for vif in self for ip in vif.fixed_ips()]

    def floating_ips(self) -> list[IP]:
        """The floating addresses of all VIFs, in VIF order."""
        return [ip for vif in self for ip in vif.floating_ips()]
