"""A server's network interfaces (``os-interface``): its ports in the
network service, and hot-plugging one in or out on its host."""

from __future__ import annotations

import logging
from typing import Any

from nova import context as nova_context
from nova import exception, objects, policy
from nova.compute.api import base
from nova.policies import attach_interfaces as policies
from nova.states import machine

LOG = logging.getLogger(__name__)


class InterfacesAPI(base.FlowAPI):
    """List, show, attach and detach a server's interfaces."""

    def list_ports(self, context, instance) -> list[dict[str, Any]]:
        """The server's ports, as the network service has them."""
        policy.authorize(context, policies.LIST, base.target(instance))
        return self.network_api.list_ports(context, instance)

    def show_port(self, context, instance, port_id: str) -> dict[str, Any]:
        """:raises PortNotFound: the server has no such port."""
        policy.authorize(context, policies.SHOW, base.target(instance))
        return self.network_api.show_port(context, instance, port_id)

    def attach_interface(
        self,
        context,
        instance,
        network_id: str | None = None,
        port_id: str | None = None,
        requested_ip: str | None = None,
        tag: str | None = None,
    ) -> dict[str, Any]:
        """Plug a port into the server on its host and wait for it: the
        user's ``port_id``, or a new one on ``network_id``.

        :returns: the new VIF.
        :raises InstanceIsLocked, InstanceInvalidState: (409).
        """
        cctxt, cell_instance = self.start_action(
            context, instance, machine.ATTACH_INTERFACE, policies.CREATE
        )
        vif = self._compute_rpcapi().attach_interface(
            cctxt, cell_instance, network_id, port_id, requested_ip, tag
        )
        LOG.info("Port %s attached to %s", vif["id"], instance.uuid)
        return vif

    def detach_interface(self, context, instance, port_id: str) -> None:
        """Unplug the server's port ``port_id`` on its host and give it
        back (a port nova made is deleted, the user's kept).

        :raises PortNotFound: the server has no such port.
        :raises InstanceIsLocked, InstanceInvalidState: (409).
        """
        policy.authorize(context, policies.DELETE, base.target(instance))
        self.network_api.show_port(context, instance, port_id)
        cctxt, cell_instance = self.start_action(
            context, instance, machine.DETACH_INTERFACE, policies.DELETE
        )
        self._compute_rpcapi().detach_interface(cctxt, cell_instance, port_id)

    # -- the info cache, after the network service changed ----------------

    def refresh_network_info(self, context, instance) -> None:
        """Bring the server's info cache to what the network service has
        now (after its ports changed outside a compute flow: a floating or
        fixed address added or removed)."""
        cctxt, cell_instance = self.in_cell(context, instance, "refresh")
        cache = objects.InstanceInfoCache.get_by_instance_uuid(cctxt, instance.uuid)
        cell_instance.info_cache = cache
        cache.network_info = self.network_api.get_instance_nw_info(cctxt, cell_instance)
        cache.save()

    def refresh_network_info_of(self, instance_uuid: str) -> None:
        """:meth:`refresh_network_info` of a server the caller may not own
        (the one a floating address was taken from); one that is gone is
        let be."""
        context = nova_context.get_admin_context()
        try:
            mapping = self.mapping(context, instance_uuid)
            if mapping.cell_mapping is None:
                return
            with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
                instance = objects.Instance.get_by_uuid(cctxt, instance_uuid)
            self.refresh_network_info(context, instance)
        except exception.InstanceNotFound:
            LOG.info("Instance %s is gone; its cache is not refreshed", instance_uuid)
