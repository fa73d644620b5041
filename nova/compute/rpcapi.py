"""Client side of nova-compute's RPC API (topic ``compute``, server = host).

Messages go to the message queue of the cell the context targets (see
:mod:`nova.rpc`): nova-api and the superconductor target the instance's
cell, a cell conductor uses its own queue.

Version history:
  1.0 - build_and_run_instance, terminate_instance, set_host_enabled
  1.1 - external_instance_event
  1.2 - stop_instance, start_instance, reboot_instance, pause_instance,
        unpause_instance, suspend_instance, resume_instance,
        get_console_output
  1.3 - get_vnc_console
"""

from __future__ import annotations

import oslo_messaging

from nova import exception, rpc

# A console log is read from a local file: a host that does not answer
# within this is not going to.
CONSOLE_OUTPUT_TIMEOUT = 60
# Putting one trait on a host's providers is a few Placement requests; the
# operator disabling the host waits for it, but not for a wedged compute.
SET_HOST_ENABLED_TIMEOUT = 30


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

    def set_host_enabled(self, context, host: str, enabled: bool) -> str:
        """Have ``host`` add or remove the COMPUTE_STATUS_DISABLED trait on
        its providers; returns ``"enabled"`` or ``"disabled"``.

        A call: the caller learns whether the compute got the message. When
        no compute ever consumed from the host's queue the broker says so
        at once (``MessageUndeliverable``) instead of a timeout.
        """
        return self.prepare(
            context,
            server=host,
            timeout=SET_HOST_ENABLED_TIMEOUT,
            transport_options=oslo_messaging.TransportOptions(at_least_once=True),
        ).call(context, "set_host_enabled", enabled=enabled)

    def external_instance_event(self, context, instances, events, host: str) -> None:
        """Tell ``host`` about events of its instances (``events`` are dicts
        with ``name``, ``instance_uuid``, ``status`` and ``tag``).

        A compute older than 1.1 does not know them: they are dropped, as
        they would be by a compute that cannot act on them.
        """
        if not self.can_send_version("1.1", context):
            return
        self.prepare(context, server=host, version="1.1").cast(
            context, "external_instance_event", instances=instances, events=events
        )

    def _cast_to_host(self, context, method: str, instance, **kwargs) -> None:
        self.prepare(context, server=_compute_host(None, instance), version="1.2").cast(
            context, method, instance=instance, **kwargs
        )

    def stop_instance(self, context, instance, clean_shutdown: bool = True) -> None:
        """Power the guest off (by ACPI first when ``clean_shutdown``)."""
        self._cast_to_host(
            context, "stop_instance", instance, clean_shutdown=clean_shutdown
        )

    def start_instance(self, context, instance) -> None:
        self._cast_to_host(context, "start_instance", instance)

    def reboot_instance(
        self, context, instance, block_device_info=None, reboot_type: str = "SOFT"
    ) -> None:
        self._cast_to_host(
            context,
            "reboot_instance",
            instance,
            block_device_info=block_device_info,
            reboot_type=reboot_type,
        )

    def pause_instance(self, context, instance) -> None:
        self._cast_to_host(context, "pause_instance", instance)

    def unpause_instance(self, context, instance) -> None:
        self._cast_to_host(context, "unpause_instance", instance)

    def suspend_instance(self, context, instance) -> None:
        self._cast_to_host(context, "suspend_instance", instance)

    def resume_instance(self, context, instance) -> None:
        self._cast_to_host(context, "resume_instance", instance)

    def get_console_output(self, context, instance, tail_length=None) -> str:
        """The guest's console log (its last ``tail_length`` lines)."""
        return self.prepare(
            context,
            server=_compute_host(None, instance),
            version="1.2",
            timeout=CONSOLE_OUTPUT_TIMEOUT,
        ).call(
            context, "get_console_output", instance=instance, tail_length=tail_length
        )

    def get_vnc_console(self, context, instance, console_type: str) -> dict:
        """``{"host", "port"}`` of the instance's VNC server, as the console
        proxy reaches it, asked of the instance's host."""
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.3"
        ).call(context, "get_vnc_console", instance=instance, console_type=console_type)
