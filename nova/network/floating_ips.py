"""Neutron's floating IPs in nova's shapes: the ``os-floating-ips`` proxy
(up to 2.35) and the ``addFloatingIp`` / ``removeFloatingIp`` server
actions (up to 2.43).

A floating IP as nova shows it::

    {"id", "ip", "pool": <its external network's name>,
     "fixed_ip": <the fixed address it maps to> or None,
     "instance_id": <the server of that port> or None}
"""

from __future__ import annotations

from typing import Any

from oslo_utils import uuidutils

import nova.conf
from nova import exception
from nova.network import neutron, neutron_client

CONF = nova.conf.CONF


class FloatingIPAPI(neutron_client.NeutronClient):
    """A project's floating IPs and their association with servers."""

    # -- shapes ---------------------------------------------------------------

    def _format_all(self, context, fips: list[dict]) -> list[dict[str, Any]]:
        """Nova's view of ``fips`` (one look-up of pools and one of ports)."""
        if not fips:
            return []
        network_ids = sorted({fip["floating_network_id"] for fip in fips})
        pools = {
            net["id"]: net.get("name") or net["id"]
            for net in self._list(context, "networks", id=network_ids)
        }
        port_ids = sorted({fip["port_id"] for fip in fips if fip.get("port_id")})
        devices = {}
        if port_ids:
            devices = {
                port["id"]: port.get("device_id") or None
                for port in self._list(context, "ports", id=port_ids)
                if (port.get("device_owner") or "").startswith(
                    neutron.DEVICE_OWNER_PREFIX
                )
            }
        return [
            {
                "id": fip["id"],
                "ip": fip["floating_ip_address"],
                "pool": pools.get(fip["floating_network_id"]),
                "fixed_ip": fip.get("fixed_ip_address"),
                "instance_id": devices.get(fip.get("port_id")),
            }
            for fip in fips
        ]

    # -- the proxy ------------------------------------------------------------

    def _fip(self, context, fip_id: str) -> dict[str, Any]:
        not_found = exception.FloatingIpNotFound(id=fip_id)
        if not uuidutils.is_uuid_like(fip_id):
            raise not_found
        return self._show(context, "floatingips", fip_id, not_found)

    def list(self, context) -> list[dict[str, Any]]:
        """The caller's project's floating IPs."""
        fips = self._floating_ips(context, project_id=context.project_id)
        fips.sort(key=lambda fip: fip["floating_ip_address"])
        return self._format_all(context, fips)

    def _floating_ips(self, context, **params) -> list[dict[str, Any]]:
        # None where Neutron has no routers (no floating IP API).
        return self._list(context, "floatingips", missing_ok=True, **params)

    def get(self, context, fip_id: str) -> dict[str, Any]:
        """:raises FloatingIpNotFound: no such floating IP of the caller's."""
        return self._format_all(context, [self._fip(context, fip_id)])[0]

    def allocate(self, context, pool: str | None) -> dict[str, Any]:
        """A new floating IP of the caller's project from ``pool`` (an
        external network's name or id; ``[neutron] default_floating_pool``
        when None).

        :raises FloatingIpPoolNotFound: no such external network.
        :raises NoMoreFloatingIps: (404) it has no free address.
        :raises FloatingIpLimitExceeded: (403) over the project's quota.
        """
        pool = pool or CONF.neutron.default_floating_pool
        externals = self._list(context, "networks", **{"router:external": True})
        matches = [net for net in externals if pool in (net["id"], net.get("name"))]
        if not matches:
            raise exception.FloatingIpPoolNotFound()
        body = {
            "floating_network_id": matches[0]["id"],
            "project_id": context.project_id,
        }
        response = self._call(
            context, "POST", "/floatingips", json={"floatingip": body}
        )
        if response.status_code >= 400:
            error = neutron_client.error_type(response)
            if error == "OverQuota":
                raise exception.FloatingIpLimitExceeded(pool=pool)
            if error in ("IpAddressGenerationFailure", "ExternalIpAddressExhausted"):
                raise exception.NoMoreFloatingIps()
            raise exception.Invalid(neutron_client.error_message(response))
        return self._format_all(context, [response.json()["floatingip"]])[0]

    def release(self, context, fip_id: str) -> str | None:
        """Give the floating IP back.

        :returns: the server it was associated with, if any (its cache is
            to be refreshed).
        """
        fip = self._fip(context, fip_id)
        server = self._server_of(context, fip)
        response = self._call(context, "DELETE", f"/floatingips/{fip_id}")
        if response.status_code == 404:
            raise exception.FloatingIpNotFound(id=fip_id)
        if response.status_code >= 400:
            raise exception.Invalid(neutron_client.error_message(response))
        return server

    # -- servers --------------------------------------------------------------

    def by_address(self, context, address: str) -> dict[str, Any]:
        """:raises FloatingIpNotFoundForAddress: the caller has none at
        ``address``."""
        params: dict[str, Any] = {"floating_ip_address": address}
        if not context.is_admin:
            params["project_id"] = context.project_id
        fips = self._floating_ips(context, **params)
        if not fips:
            raise exception.FloatingIpNotFoundForAddress(address=address)
        return fips[0]

    def _server_of(self, context, fip: dict[str, Any]) -> str | None:
        if not fip.get("port_id"):
            return None
        response = self._call(context, "GET", f"/ports/{fip['port_id']}")
        if response.status_code != 200:
            return None
        return response.json()["port"].get("device_id") or None

    def associate(
        self, context, instance, address: str, fixed_address: str | None = None
    ) -> str | None:
        """Map the floating ``address`` onto the instance's ``fixed_address``
        (its first IPv4 fixed address when None).

        :returns: the server the address was taken from, if another.
        :raises Invalid: (400) the instance has no (such) fixed address, or
            Neutron cannot map it (no router to the external network).
        """
        fip = self.by_address(context, address)
        ports = self._list(context, "ports", device_id=instance.uuid)
        fixed = [
            (port["id"], ip["ip_address"])
            for port in ports
            for ip in port.get("fixed_ips", [])
        ]
        if not fixed:
            raise exception.FixedIpNotFoundForInstance(instance_uuid=instance.uuid)
        if fixed_address:
            chosen = [pair for pair in fixed if pair[1] == fixed_address]
            if not chosen:
                raise exception.FixedIpNotFoundForSpecificInstance(
                    instance_uuid=instance.uuid, ip=fixed_address
                )
        else:
            chosen = [pair for pair in fixed if ":" not in pair[1]] or fixed
        port_id, ip_address = chosen[0]
        previous = self._server_of(context, fip)
        response = self._call(
            context,
            "PUT",
            f"/floatingips/{fip['id']}",
            json={"floatingip": {"port_id": port_id, "fixed_ip_address": ip_address}},
        )
        if response.status_code >= 400:
            raise exception.FloatingIpAssociateFailed(
                reason=neutron_client.error_message(response)
            )
        return previous if previous != instance.uuid else None

    def disassociate(self, context, instance, address: str) -> None:
        """Unmap the floating ``address`` from the instance.

        :raises FloatingIpNotAssociated: (409) it is not the instance's.
        """
        fip = self.by_address(context, address)
        if self._server_of(context, fip) != instance.uuid:
            raise exception.FloatingIpNotAssociatedWithInstance(
                address=address, id=instance.uuid
            )
        response = self._call(
            context,
            "PUT",
            f"/floatingips/{fip['id']}",
            json={"floatingip": {"port_id": None}},
        )
        if response.status_code >= 400:
            raise exception.Invalid(neutron_client.error_message(response))
