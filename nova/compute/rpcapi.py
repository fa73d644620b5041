"""Client side of nova-compute's RPC API (topic ``compute``, server = host).

Messages go to the message queue of the cell the context targets (see
:mod:`nova.rpc`): nova-api and the superconductor target the instance's
cell, a cell conductor uses its own queue.

Version history:
  1.0 - build_and_run_instance, terminate_instance
  1.1 - get_vnc_console
"""

from __future__ import annotations

from nova import exception, rpc


def _compute_host(host: str | None, instance) -> str:
    host = host or instance.host
    if not host:
        raise exception.NovaException(
            f"Instance {instance.uuid} has no host to send the request to"
        )
    return host


class ComputeAPI(rpc.RPCAPI):
    TOPIC = "compute"
    VERSION = "1.1"
    UPGRADE_LEVEL = "compute"

    def build_and_run_instance(
        self,
        context,
        instance,
        host: str,
        image,
        request_spec,
        filter_properties,
        admin_password=None,
        injected_files=None,
        requested_networks=None,
        security_groups=None,
        block_device_mapping=None,
        node: str | None = None,
        limits=None,
        host_list=None,
    ) -> None:
        """Build and start the instance on ``host`` (its allocations are
        already claimed in Placement); ``host_list`` holds the alternates."""
        self.prepare(context, server=_compute_host(host, instance)).cast(
            context,
            "build_and_run_instance",
            instance=instance,
            image=image,
            request_spec=request_spec,
            filter_properties=filter_properties,
            admin_password=admin_password,
            injected_files=injected_files,
            requested_networks=requested_networks,
            security_groups=security_groups,
            block_device_mapping=block_device_mapping,
            node=node,
            limits=limits,
            host_list=host_list,
        )

    def terminate_instance(self, context, instance, bdms=None) -> None:
        """Destroy the guest, free its allocations and soft-delete the
        instance, on the instance's host."""
        self.prepare(context, server=_compute_host(None, instance)).cast(
            context, "terminate_instance", instance=instance, bdms=bdms
        )

    def get_vnc_console(self, context, instance, console_type: str) -> dict:
        """``{"host", "port"}`` of the instance's VNC server, as the console
        proxy reaches it, asked of the instance's host."""
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.1"
        ).call(context, "get_vnc_console", instance=instance, console_type=console_type)
