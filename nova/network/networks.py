"""Neutron's networks as nova's proxy APIs show them (``os-networks``,
``os-tenant-networks`` and ``os-floating-ip-pools``, up to 2.35).

Nova-network's fields are gone with it: ``os-networks`` shows a network's
id and name (``label``) and null for every other field it once had, as
upstream does.
"""

from __future__ import annotations

from typing import Any

from oslo_utils import uuidutils

from nova import exception
from nova.network import neutron_client


class NetworksAPI(neutron_client.NeutronClient):
    """The networks a project may see, and the floating IP pools."""

    @staticmethod
    def _visible(context, network: dict[str, Any], shared_ok: bool = True) -> bool:
        # Neutron shows everyone the external networks, too.
        return neutron_client.NeutronClient._visible(
            context, network, shared_ok
        ) or bool(network.get("router:external"))

    def list(self, context) -> list[dict[str, Any]]:
        """The networks the caller may see, by name."""
        networks = [
            net
            for net in self._list(context, "networks")
            if self._visible(context, net)
        ]
        networks.sort(key=lambda net: (net.get("name") or "", net["id"]))
        return networks

    def get(self, context, network_id: str) -> dict[str, Any]:
        """:raises NetworkNotFound: no such network the caller may see."""
        not_found = exception.NetworkNotFound(network_id=network_id)
        if not uuidutils.is_uuid_like(network_id):
            raise not_found
        return self._show(context, "networks", network_id, not_found)

    def floating_ip_pools(self, context) -> list[str]:
        """The names of the external networks (floating IPs come from them)."""
        pools = self._list(context, "networks", **{"router:external": True})
        return sorted(net.get("name") or net["id"] for net in pools)
