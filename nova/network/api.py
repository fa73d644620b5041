"""The interface nova's services use for an instance's networking.

What a build and a delete need, in upstream's names:

- the compute API checks a create's requested networks before accepting
  the build (:meth:`NetworkAPI.validate_networks`);
- the compute manager gets the instance its ports before spawning the guest
  (:meth:`NetworkAPI.allocate_for_instance`), hands the network info to the
  virt driver as ``network_info`` and keeps it in the instance's info cache;
- it asks again what the instance has when the cache may be stale
  (:meth:`NetworkAPI.get_instance_nw_info`);
- it gives the ports back when the instance is deleted or its build fails
  for good (:meth:`NetworkAPI.deallocate_for_instance`).

Moving an instance (resize, migrate, live migration, evacuate) will add the
port-binding calls upstream names ``setup_networks_on_host``,
``migrate_instance_start`` and ``migrate_instance_finish``.

:func:`get_network_api` chooses the implementation: the Neutron client
(:mod:`nova.network.neutron`) when ``[neutron]`` is configured, else
:mod:`nova.network.local` (no network service, no ports).

:class:`NetworkAPI` is a protocol, as :class:`nova.image.api.ImageAPI` is:
implementations do not import this module, which imports them.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from nova.network import model

# A create's ``networks``: "auto", "none", or a list of requests, each with
# a network ``uuid``, a ``port``, a ``fixed_ip`` and/or a ``tag``.
RequestedNetworks = str | list[dict[str, Any]] | None


@runtime_checkable
class NetworkAPI(Protocol):
    """Gets an instance its ports and tells what it has."""

    def validate_networks(
        self, context, requested_networks: RequestedNetworks, num_instances: int
    ) -> int:
        """Check, before a create is accepted, that ``context``'s project may
        have ``num_instances`` instances on ``requested_networks``.

        :returns: how many of them it may have (the port quota can allow
            fewer than ``num_instances``).
        :raises NetworkRequestsNotSupported: specific networks were asked
            for and this deployment cannot give them (400).
        """
        ...

    def validate_security_groups(self, context, names: list[str]) -> None:
        """Check, before a create is accepted, that ``context``'s project
        has the security groups ``names`` (names or ids).

        :raises SecurityGroupNotFound: one of them it has not.
        """
        ...

    def allocate_for_instance(
        self,
        context,
        instance,
        requested_networks: RequestedNetworks,
        security_groups: list[str] | None = None,
        bind_host_id: str | None = None,
    ) -> model.NetworkInfo:
        """Create or take the instance's ports as requested, in
        ``security_groups``, bound to the host ``bind_host_id``.

        :returns: the instance's network info, for the virt driver and for
            the caller to keep in the instance's info cache.
        """
        ...

    def deallocate_for_instance(
        self, context, instance, requested_networks: RequestedNetworks = None
    ) -> None:
        """Give back what :meth:`allocate_for_instance` took: ports nova
        created are deleted, ports the user brought are unbound and kept.
        An instance without ports is no error."""
        ...

    def get_instance_nw_info(self, context, instance) -> model.NetworkInfo:
        """The instance's network info as the network service has it now."""
        ...

    # -- one interface at a time (os-interface) -----------------------------

    def list_ports(self, context, instance) -> list[dict[str, Any]]:
        """The network service's ports of ``instance`` (Neutron's shape)."""
        ...

    def show_port(self, context, instance, port_id: str) -> dict[str, Any]:
        """The port ``port_id`` of ``instance``.

        :raises PortNotFound: the instance has no such port the caller may
            see.
        """
        ...

    def allocate_port_for_instance(
        self,
        context,
        instance,
        port_id: str | None = None,
        network_id: str | None = None,
        requested_ip: str | None = None,
        bind_host_id: str | None = None,
    ) -> tuple[model.VIF, model.NetworkInfo]:
        """Give a running instance one more port, bound to
        ``bind_host_id``: the user's ``port_id``, or a new one on
        ``network_id`` (at ``requested_ip``), or on the one network the
        project may use when neither is named.

        :returns: the new VIF and the instance's whole network info.
        """
        ...

    def deallocate_port_for_instance(
        self, context, instance, port_id: str
    ) -> model.NetworkInfo:
        """Take one port from ``instance`` (deleted if nova made it, unbound
        if the user brought it).

        :returns: the instance's network info without it.
        :raises PortNotFound: the instance has no such port.
        """
        ...

    def get_instances_security_groups_bindings(
        self, context, instance_uuids: list[str]
    ) -> dict[str, list[dict[str, str]]]:
        """instance uuid -> ``[{"name": ...}]``: the security groups of its
        ports, for the instances that have any."""
        ...

    def add_fixed_ip_to_instance(self, context, instance, network_id: str) -> None:
        """Give the instance's port on ``network_id`` one more address.

        :raises NetworkNotFoundForInstance: it has no port there (400).
        :raises NoMoreFixedIps: no free address there.
        """
        ...

    def remove_fixed_ip_from_instance(self, context, instance, address: str) -> None:
        """Take ``address`` from the instance's port that has it.

        :raises FixedIpNotFoundForSpecificInstance: none has it (400).
        """
        ...


def get_network_api() -> NetworkAPI:
    """The network API of this deployment: Neutron
    (:class:`nova.network.neutron.NeutronNetworkAPI`) when ``[neutron]`` is
    configured, else no network service
    (:class:`nova.network.local.LocalNetworkAPI`)."""
    from nova.network import neutron

    if neutron.configured():
        return neutron.NeutronNetworkAPI()
    from nova.network import local

    return local.LocalNetworkAPI()
