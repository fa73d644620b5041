"""Networking without a network service: an instance gets no ports.

The network API (:class:`nova.network.api.NetworkAPI`) of a deployment with
no Neutron, such as the all-in-one. A create may ask for ``"auto"`` or
``"none"`` (both give no ports) but not for specific networks.
"""

from __future__ import annotations

from typing import Any

from nova import exception
from nova.network import model


class LocalNetworkAPI:
    """Allocates nothing; every instance's network info is empty."""

    def validate_networks(
        self,
        context,
        requested_networks: str | list[dict[str, Any]] | None,
        num_instances: int,
    ) -> int:
        if isinstance(requested_networks, list) and requested_networks:
            raise exception.NetworkRequestsNotSupported()
        return num_instances

    def validate_security_groups(self, context, names: list[str]) -> None:
        """Without a network service there are no groups to apply, so a
        request naming some is taken as it is."""

    def allocate_for_instance(
        self,
        context,
        instance,
        requested_networks: str | list[dict[str, Any]] | None,
        security_groups: list[str] | None = None,
        bind_host_id: str | None = None,
    ) -> model.NetworkInfo:
        return model.NetworkInfo()

    def deallocate_for_instance(
        self,
        context,
        instance,
        requested_networks: str | list[dict[str, Any]] | None = None,
    ) -> None:
        """Nothing was allocated, so nothing is given back."""

    def get_instance_nw_info(self, context, instance) -> model.NetworkInfo:
        return model.NetworkInfo()

    def list_ports(self, context, instance) -> list[dict[str, Any]]:
        return []

    def show_port(self, context, instance, port_id: str) -> dict[str, Any]:
        raise exception.PortNotFound(port_id=port_id)

    def allocate_port_for_instance(
        self,
        context,
        instance,
        port_id: str | None = None,
        network_id: str | None = None,
        requested_ip: str | None = None,
        bind_host_id: str | None = None,
    ) -> tuple[model.VIF, model.NetworkInfo]:
        raise exception.NetworkServiceNotConfigured(what="interfaces")

    def deallocate_port_for_instance(
        self, context, instance, port_id: str
    ) -> model.NetworkInfo:
        raise exception.PortNotFound(port_id=port_id)

    def get_instances_security_groups_bindings(
        self, context, instance_uuids: list[str]
    ) -> dict[str, list[dict[str, str]]]:
        return {}

    def add_fixed_ip_to_instance(self, context, instance, network_id: str) -> None:
        raise exception.NetworkNotFoundForInstance(
            network_id=network_id, instance_uuid=instance.uuid
        )

    def remove_fixed_ip_from_instance(self, context, instance, address: str) -> None:
        raise exception.FixedIpNotFoundForSpecificInstance(
            instance_uuid=instance.uuid, ip=address
        )
