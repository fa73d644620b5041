"""Neutron v2.0 on keystoneauth1: an instance's ports in the real Networking
service.

Nova acts on Neutron with the service credentials of ``[neutron]`` (the
``nova`` service user holds the roles Neutron wants for port bindings) and
keeps users to what is theirs itself: a network is usable by a project that
owns it or when it is shared, a port only by its own project (an admin may
use any). The endpoint is ``[neutron] endpoint_override`` or the catalog's.

Ports nova creates are deleted again when the instance goes; ports the user
brought (``{"port": ...}``) are unbound and kept (``preserve_on_delete``).
A build whose allocation fails halfway gives back what it took before the
error reaches the caller.
"""

from __future__ import annotations

from typing import Any

from oslo_log import log as logging

import nova.conf
from nova import exception
from nova.network import model, neutron_client

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

DEVICE_OWNER_PREFIX = "compute:"
# Linux interface names hold 15 characters: "tap" and 11 of the port id.
DEVNAME_LENGTH = 14
BINDING_FAILED = "binding_failed"

configured = neutron_client.configured


def _requested(requested_networks) -> list[dict[str, Any]]:
    """The explicit requests of a create (none for "auto", "none" or None)."""
    return requested_networks if isinstance(requested_networks, list) else []


class NeutronNetworkAPI(neutron_client.NeutronClient):
    """The network API (:class:`nova.network.api.NetworkAPI`) over Neutron."""

    # -- what a project may use ----------------------------------------------------

    def _networks(self, context, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The networks of ``ids`` the caller may use, by id."""
        if not ids:
            return {}
        found = self._list(context, "networks", id=sorted(set(ids)))
        return {net["id"]: net for net in found if self._visible(context, net)}

    def _available_networks(self, context, project_id: str) -> list[dict[str, Any]]:
        """Networks a server of ``project_id`` gets when it names none: its
        project's own and the shared ones (external ones excluded)."""
        own = self._list(context, "networks", project_id=project_id, shared=False)
        shared = self._list(context, "networks", shared=True)
        networks = {net["id"]: net for net in own + shared}
        return [
            net for net in networks.values() if not net.get("router:external", False)
        ]

    def _port(self, context, port_id: str) -> dict[str, Any]:
        return self._show(
            context, "ports", port_id, exception.PortNotFound(port_id=port_id)
        )

    # -- NetworkAPI ----------------------------------------------------------------

    def validate_networks(self, context, requested_networks, num_instances: int) -> int:
        if requested_networks == "none":
            return num_instances
        requests = _requested(requested_networks)
        if not requests:
            networks = self._available_networks(context, context.project_id)
            if len(networks) > 1:
                raise exception.NetworkAmbiguous()
            if not networks and requested_networks == "auto":
                raise exception.UnableToAutoAllocateNetwork(
                    project_id=context.project_id
                )
            return num_instances
        for request in requests:
            if request.get("port"):
                if num_instances > 1:
                    raise exception.MultiplePortsNotApplicable(
                        reason="Unable to launch multiple instances with a single "
                        "configured port ID. Please launch your instance one by "
                        "one with different ports."
                    )
                port = self._port(context, request["port"])
                if port.get("device_id"):
                    raise exception.PortInUse(port_id=port["id"])
                if not port.get("fixed_ips"):
                    raise exception.PortRequiresFixedIP(port_id=port["id"])
        network_ids = [
            r["uuid"] for r in requests if r.get("uuid") and not r.get("port")
        ]
        networks = self._networks(context, network_ids)
        for network_id in network_ids:
            network = networks.get(network_id)
            if network is None:
                raise exception.NetworkNotFound(network_id=network_id)
            if not network.get("subnets"):
                raise exception.NetworkRequiresSubnet(network_uuid=network_id)
        for request in requests:
            if request.get("fixed_ip") and not request.get("port"):
                in_use = self._list(
                    context,
                    "ports",
                    network_id=request["uuid"],
                    fixed_ips=f"ip_address={request['fixed_ip']}",
                )
                if in_use:
                    raise exception.FixedIpAlreadyInUse(
                        address=request["fixed_ip"],
                        instance_uuid=in_use[0].get("device_id") or "",
                    )
        return num_instances

    def allocate_for_instance(
        self,
        context,
        instance,
        requested_networks,
        security_groups: list[str] | None = None,
        bind_host_id: str | None = None,
    ) -> model.NetworkInfo:
        if requested_networks == "none":
            return model.NetworkInfo()
        requests = _requested(requested_networks)
        if not requests:
            networks = self._available_networks(context, instance.project_id)
            if len(networks) > 1:
                raise exception.NetworkAmbiguous()
            if not networks:
                if requested_networks == "auto":
                    raise exception.UnableToAutoAllocateNetwork(
                        project_id=instance.project_id
                    )
                return model.NetworkInfo()
            requests = [{"uuid": networks[0]["id"]}]
        ports = self._take_ports(
            context, instance, requests, security_groups, bind_host_id
        )
        # Only ports the user brought can have floating IPs yet.
        return self._network_info(
            context, ports, with_floating_ips=any(user for _, user in ports)
        )

    def _take_ports(
        self, context, instance, requests, security_groups, bind_host_id
    ) -> list[tuple[dict[str, Any], bool]]:
        """The ports of ``requests``, created or taken and bound to the
        instance (each with whether the user brought it); on a failure,
        those taken so far are given back."""
        group_ids = self._security_group_ids(
            context, instance.project_id, security_groups
        )
        binding = {
            "device_id": instance.uuid,
            "device_owner": DEVICE_OWNER_PREFIX
            + (instance.availability_zone or CONF.default_availability_zone),
            "binding:host_id": bind_host_id,
        }
        ports: list[tuple[dict[str, Any], bool]] = []
        try:
            for request in requests:
                if request.get("port"):
                    port = self._take_port(context, request, binding)
                    ports.append((port, True))
                else:
                    port = self._create_port(
                        context, instance, request, binding, group_ids
                    )
                    ports.append((port, False))
                if bind_host_id and port.get("binding:vif_type") == BINDING_FAILED:
                    raise exception.PortBindingFailed(port_id=port["id"])
        except BaseException:
            self._give_back(context, ports)
            raise
        return ports

    def validate_security_groups(self, context, names: list[str]) -> None:
        self._security_group_ids(context, context.project_id, names)

    def _security_group_ids(
        self, context, project_id: str, names: list[str] | None
    ) -> list[str] | None:
        """Neutron ids of the requested groups; None (Neutron applies the
        project's ``default``) when only ``default`` or nothing is asked."""
        wanted = [name for name in names or () if name]
        if not wanted or wanted == ["default"]:
            return None
        groups = self._list(context, "security-groups", project_id=project_id)
        ids = []
        for name in dict.fromkeys(wanted):
            match = [g["id"] for g in groups if name in (g["id"], g["name"])]
            if not match:
                raise exception.SecurityGroupNotFound(security_group_id=name)
            ids.append(match[0])
        return ids

    def _take_port(self, context, request, binding) -> dict[str, Any]:
        port = self._port(context, request["port"])
        if port.get("device_id"):
            raise exception.PortInUse(port_id=port["id"])
        response = self._call(
            context, "PUT", f"/ports/{port['id']}", json={"port": binding}
        )
        if response.status_code != 200:
            raise exception.PortInUse(port_id=port["id"])
        return response.json()["port"]

    def _create_port(
        self, context, instance, request, binding, group_ids
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "network_id": request["uuid"],
            "project_id": instance.project_id,
            "admin_state_up": True,
            **binding,
        }
        if request.get("fixed_ip"):
            body["fixed_ips"] = [{"ip_address": request["fixed_ip"]}]
        if group_ids is not None:
            body["security_groups"] = group_ids
        response = self._call(context, "POST", "/ports", json={"port": body})
        if response.status_code == 201:
            return response.json()["port"]
        error = neutron_client.error_type(response)
        if response.status_code == 404:
            raise exception.NetworkNotFound(network_id=request["uuid"])
        if error == "IpAddressAlreadyAllocated":
            raise exception.FixedIpAlreadyInUse(
                address=request.get("fixed_ip"), instance_uuid=""
            )
        if error == "IpAddressGenerationFailure":
            raise exception.NoMoreFixedIps(net=request["uuid"])
        raise exception.NetworkServiceUnavailable(
            reason=f"POST /ports returned {response.status_code}: {error}"
        )

    def _give_back(self, context, ports: list[tuple[dict[str, Any], bool]]) -> None:
        """Delete the ports nova made, unbind the user's ones."""
        for port, preserve in ports:
            try:
                if preserve:
                    self._unbind(context, port["id"])
                else:
                    self._call(context, "DELETE", f"/ports/{port['id']}")
            except exception.NetworkServiceUnavailable:
                LOG.warning("Could not give back port %s", port["id"], exc_info=True)

    def _unbind(self, context, port_id: str) -> None:
        self._call(
            context,
            "PUT",
            f"/ports/{port_id}",
            json={
                "port": {"device_id": "", "device_owner": "", "binding:host_id": None}
            },
        )

    def deallocate_for_instance(
        self, context, instance, requested_networks=None
    ) -> None:
        ports = self._list(context, "ports", device_id=instance.uuid)
        if not ports:
            return
        kept = {r["port"] for r in _requested(requested_networks) if r.get("port")}
        cache = instance.info_cache if "info_cache" in instance else None
        for vif in (cache.network_info if cache is not None else None) or ():
            if vif.get("preserve_on_delete"):
                kept.add(vif["id"])
        self._give_back(context, [(port, port["id"] in kept) for port in ports])

    def get_instance_nw_info(self, context, instance) -> model.NetworkInfo:
        ports = self._list(context, "ports", device_id=instance.uuid)
        cache = instance.info_cache if "info_cache" in instance else None
        preserved = {
            vif["id"]
            for vif in (cache.network_info if cache is not None else None) or ()
            if vif.get("preserve_on_delete")
        }
        return self._network_info(
            context, [(port, port["id"] in preserved) for port in ports]
        )

    # -- one interface at a time (os-interface) ---------------------------------

    def list_ports(self, context, instance) -> list[dict[str, Any]]:
        """Neutron's ports of ``instance``."""
        return self._list(context, "ports", device_id=instance.uuid)

    def show_port(self, context, instance, port_id: str) -> dict[str, Any]:
        """The port ``port_id`` of ``instance``.

        :raises PortNotFound: no such port the caller may see, or not the
            instance's.
        """
        port = self._port(context, port_id)
        if port.get("device_id") != instance.uuid:
            raise exception.PortNotFound(port_id=port_id)
        return port

    def allocate_port_for_instance(
        self,
        context,
        instance,
        port_id: str | None = None,
        network_id: str | None = None,
        requested_ip: str | None = None,
        bind_host_id: str | None = None,
    ) -> tuple[model.VIF, model.NetworkInfo]:
        """Give the running ``instance`` one more port: the user's
        ``port_id``, or a new one on ``network_id`` (at ``requested_ip``),
        or on the one network it may use when neither is named.

        :returns: the new VIF and the instance's whole network info.
        :raises InterfaceAttachFailedNoNetwork: no network is named and
            the project has none.
        """
        if port_id:
            request: dict[str, Any] = {"port": port_id}
        elif network_id:
            request = {"uuid": network_id}
            if requested_ip:
                request["fixed_ip"] = requested_ip
        else:
            networks = self._available_networks(context, instance.project_id)
            if len(networks) > 1:
                raise exception.NetworkAmbiguous()
            if not networks:
                raise exception.InterfaceAttachFailedNoNetwork(
                    project_id=instance.project_id
                )
            request = {"uuid": networks[0]["id"]}
        self.validate_networks(context, [request], 1)
        ((port, preserve),) = self._take_ports(
            context, instance, [request], None, bind_host_id
        )
        network_info = self.get_instance_nw_info(context, instance)
        (vif,) = [vif for vif in network_info if vif["id"] == port["id"]]
        vif["preserve_on_delete"] = preserve
        return vif, network_info

    def deallocate_port_for_instance(
        self, context, instance, port_id: str
    ) -> model.NetworkInfo:
        """Take ``port_id`` from ``instance``: deleted if nova made it,
        unbound and kept if the user brought it.

        :returns: the instance's network info without it.
        :raises PortNotFound: the instance has no such port.
        """
        port = self.show_port(context, instance, port_id)
        network_info = self.get_instance_nw_info(context, instance)
        preserve = any(
            vif["id"] == port_id and vif.get("preserve_on_delete")
            for vif in network_info
        )
        self._give_back(context, [(port, preserve)])
        return model.NetworkInfo(vif for vif in network_info if vif["id"] != port_id)

    # -- fixed addresses (addFixedIp / removeFixedIp) -------------------------

    def add_fixed_ip_to_instance(self, context, instance, network_id: str) -> None:
        """One more address, on ``network_id``, for the instance's port
        there.

        :raises NetworkNotFoundForInstance: (400) it has no port there.
        :raises NoMoreFixedIps: (400) no subnet there has a free address.
        """
        ports = self._list(
            context, "ports", device_id=instance.uuid, network_id=network_id
        )
        if not ports:
            raise exception.NetworkNotFoundForInstance(
                network_id=network_id, instance_uuid=instance.uuid
            )
        port = ports[0]
        for subnet in self._list(context, "subnets", network_id=network_id):
            fixed_ips = [*port["fixed_ips"], {"subnet_id": subnet["id"]}]
            response = self._call(
                context,
                "PUT",
                f"/ports/{port['id']}",
                json={"port": {"fixed_ips": fixed_ips}},
            )
            if response.status_code == 200:
                return
            LOG.info(
                "No address for %s on subnet %s: %s",
                instance.uuid,
                subnet["id"],
                neutron_client.error_message(response),
            )
        raise exception.NoMoreFixedIps(net=network_id)

    def remove_fixed_ip_from_instance(self, context, instance, address: str) -> None:
        """:raises FixedIpNotFoundForSpecificInstance: (400) no port of the
        instance has ``address``."""
        for port in self._list(context, "ports", device_id=instance.uuid):
            kept = [ip for ip in port["fixed_ips"] if ip["ip_address"] != address]
            if len(kept) == len(port["fixed_ips"]):
                continue
            response = self._call(
                context,
                "PUT",
                f"/ports/{port['id']}",
                json={"port": {"fixed_ips": kept}},
            )
            if response.status_code != 200:
                raise exception.Invalid(neutron_client.error_message(response))
            return
        raise exception.FixedIpNotFoundForSpecificInstance(
            instance_uuid=instance.uuid, ip=address
        )

    def get_instances_security_groups_bindings(
        self, context, instance_uuids: list[str]
    ) -> dict[str, list[dict[str, str]]]:
        """instance uuid -> ``[{"name": ...}]``, the groups of its ports (one
        look-up of ports and one of groups for all instances)."""
        if not instance_uuids:
            return {}
        ports = self._list(context, "ports", device_id=sorted(set(instance_uuids)))
        group_ids = sorted(
            {g for port in ports for g in port.get("security_groups", [])}
        )
        if not group_ids:
            return {}
        names = {
            group["id"]: group["name"]
            for group in self._list(context, "security-groups", id=group_ids)
        }
        bindings: dict[str, dict[str, None]] = {}
        for port in ports:
            ordered = bindings.setdefault(port["device_id"], {})
            for group_id in port.get("security_groups", []):
                if group_id in names:
                    ordered[names[group_id]] = None
        return {
            uuid: [{"name": name} for name in ordered]
            for uuid, ordered in bindings.items()
            if ordered
        }

    # -- network info ----------------------------------------------------------------

    def _network_info(
        self,
        context,
        ports: list[tuple[dict[str, Any], bool]],
        with_floating_ips: bool = True,
    ) -> model.NetworkInfo:
        """The model of ``ports``, with their networks, subnets and (unless
        told the ports cannot have any) floating IPs: one look-up of each
        kind for all ports."""
        if not ports:
            return model.NetworkInfo()
        floating: dict[tuple[str, str], list[str]] = {}
        if with_floating_ips:
            for fip in self._floating_ips_of(context, [p["id"] for p, _ in ports]):
                key = (fip["port_id"], fip.get("fixed_ip_address"))
                floating.setdefault(key, []).append(fip["floating_ip_address"])
        network_ids = sorted({port["network_id"] for port, _ in ports})
        networks = {
            net["id"]: net for net in self._list(context, "networks", id=network_ids)
        }
        subnet_ids = sorted(
            {ip["subnet_id"] for port, _ in ports for ip in port.get("fixed_ips", [])}
        )
        subnets = {}
        if subnet_ids:
            subnets = {
                subnet["id"]: subnet
                for subnet in self._list(context, "subnets", id=subnet_ids)
            }
        return model.NetworkInfo(
            self._vif(
                port, preserve, networks.get(port["network_id"], {}), subnets, floating
            )
            for port, preserve in ports
        )

    def _floating_ips_of(self, context, port_ids: list[str]) -> list[dict[str, Any]]:
        """Neutron's floating IPs on ``port_ids``; none where Neutron has no
        routers (no floating IP API)."""
        return self._list(
            context, "floatingips", missing_ok=True, port_id=sorted(port_ids)
        )

    @staticmethod
    def _vif(port, preserve: bool, network, subnets, floating) -> model.VIF:
        details = port.get("binding:vif_details") or {}
        vif_type = port.get("binding:vif_type")
        model_subnets = []
        for subnet_id in dict.fromkeys(ip["subnet_id"] for ip in port["fixed_ips"]):
            subnet = subnets.get(subnet_id, {})
            model_subnets.append(
                model.Subnet(
                    cidr=subnet.get("cidr"),
                    gateway=model.IP(address=subnet["gateway_ip"], type="gateway")
                    if subnet.get("gateway_ip")
                    else None,
                    dns=[
                        model.IP(address=dns, type="dns")
                        for dns in subnet.get("dns_nameservers", [])
                    ],
                    routes=[
                        model.Route(
                            cidr=route["destination"],
                            gateway=model.IP(address=route["nexthop"], type="gateway"),
                        )
                        for route in subnet.get("host_routes", [])
                    ],
                    ips=[
                        model.FixedIP(
                            address=ip["ip_address"],
                            floating_ips=[
                                model.IP(address=address, type="floating")
                                for address in floating.get(
                                    (port["id"], ip["ip_address"]), ()
                                )
                            ],
                        )
                        for ip in port["fixed_ips"]
                        if ip["subnet_id"] == subnet_id
                    ],
                    meta={"dhcp_server": None} if subnet.get("enable_dhcp") else {},
                )
            )
        return model.VIF(
            id=port["id"],
            address=port["mac_address"],
            network=model.Network(
                id=port["network_id"],
                bridge=details.get("bridge_name") or CONF.neutron.ovs_bridge,
                label=network.get("name") or port["network_id"],
                subnets=model_subnets,
                meta={
                    "mtu": network.get("mtu"),
                    "tenant_id": network.get("project_id"),
                },
            ),
            type=vif_type,
            details=details,
            devname=("tap" + port["id"])[:DEVNAME_LENGTH],
            ovs_interfaceid=port["id"] if vif_type == "ovs" else None,
            active=port.get("status") == "ACTIVE",
            vnic_type=port.get("binding:vnic_type") or model.VNIC_TYPE_NORMAL,
            profile=port.get("binding:profile") or {},
            preserve_on_delete=preserve,
        )
