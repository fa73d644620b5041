"""The interface between nova-compute and a hypervisor.

nova-compute calls only these methods; ``[DEFAULT] compute_driver`` names
the implementation as upstream does (``fake.FakeDriver``,
``libvirt.LibvirtDriver``), relative to ``nova.virt``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from oslo_log import log as logging
from oslo_utils import importutils

from nova import exception

LOG = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class InstanceInfo:
    """A guest as the hypervisor sees it (``state`` is a power_state)."""

    state: int
    internal_id: str | None = None


@dataclasses.dataclass(frozen=True)
class LifecycleEvent:
    """A guest changed its power state by itself or by our hand."""

    uuid: str
    power_state: int


class ComputeDriver:
    """Base class of virt drivers; every method raises NotImplementedError
    until a driver implements it."""

    def init_host(self, host: str) -> None:
        """Prepare the hypervisor of ``host`` before nova-compute serves."""

    def cleanup_host(self, host: str) -> None:
        """Release what init_host acquired, at shutdown."""

    def get_available_nodes(self, refresh: bool = False) -> list[str]:
        """The hypervisor hostnames (nodes) this driver manages."""
        raise NotImplementedError()

    def get_available_resource(self, nodename: str) -> dict[str, Any]:
        """The node's resources: ``vcpus``, ``memory_mb``, ``local_gb``,
        their ``*_used``, ``hypervisor_type``, ``hypervisor_version``,
        ``hypervisor_hostname``, ``cpu_info`` (JSON), ``disk_available_least``,
        ``supported_instances`` ([arch, hv type, vm mode] triples)."""
        raise NotImplementedError()

    def list_instances(self) -> list[str]:
        """Names of the guests the hypervisor runs."""
        raise NotImplementedError()

    def list_instance_uuids(self) -> list[str]:
        raise NotImplementedError()

    def spawn(
        self,
        context,
        instance,
        image_meta,
        injected_files,
        admin_password,
        allocations,
        network_info=None,
        block_device_info=None,
        power_on: bool = True,
    ) -> None:
        """Create and (by default) start the guest. A failed spawn leaves
        nothing behind."""
        raise NotImplementedError()

    def destroy(
        self,
        context,
        instance,
        network_info=None,
        block_device_info=None,
        destroy_disks: bool = True,
    ) -> None:
        """Stop and delete the guest; a guest that does not exist is no error."""
        raise NotImplementedError()

    def get_info(self, instance, use_cache: bool = True) -> InstanceInfo:
        """The guest's state; raises InstanceNotFound if there is none."""
        raise NotImplementedError()

    def power_off(self, instance, timeout: int = 0, retry_interval: int = 0) -> None:
        raise NotImplementedError()

    def power_on(self, context, instance, network_info, block_device_info=None):
        raise NotImplementedError()

    def reboot(
        self, context, instance, network_info, reboot_type, block_device_info=None
    ) -> None:
        """``reboot_type`` is SOFT or HARD."""
        raise NotImplementedError()

    def pause(self, instance) -> None:
        raise NotImplementedError()

    def unpause(self, instance) -> None:
        raise NotImplementedError()

    def suspend(self, context, instance) -> None:
        raise NotImplementedError()

    def resume(self, context, instance, network_info, block_device_info=None):
        raise NotImplementedError()

    def rescue(
        self, context, instance, network_info, image_meta, rescue_password
    ) -> None:
        """Boot the guest from ``image_meta``'s image with its root disk
        attached as the second disk; its own configuration is kept for
        :meth:`unrescue`."""
        raise NotImplementedError()

    def unrescue(self, context, instance) -> None:
        """Boot the guest from its own disks again, as before the rescue."""
        raise NotImplementedError()

    def get_console_output(self, context, instance) -> str:
        """The tail of the guest's console log."""
        raise NotImplementedError()

    def snapshot(self, context, instance, image_id: str, update_task_state) -> None:
        """Store a copy of the guest's root disk as the data of the image
        ``image_id`` (already created, still queued).

        ``update_task_state(task_state, expected_state=...)`` records the
        progress: IMAGE_PENDING_UPLOAD once the disk is captured, then
        IMAGE_UPLOADING while the data goes to the image service.

        :raises InstanceNotFound: the hypervisor has no such guest.
        """
        raise NotImplementedError()

    def register_event_listener(self, callback) -> None:
        """Have ``callback(LifecycleEvent)`` called on every power change
        the hypervisor reports; drivers without events ignore it."""

    def manage_image_cache(self, context, all_instances) -> None:
        """Drop cached images none of ``all_instances`` (this host's) uses."""

    def get_vnc_console(self, context, instance) -> dict[str, Any]:
        """Where the guest's VNC server listens, as the console proxy
        reaches it: ``{"host": address, "port": port}``.

        :raises InstanceNotFound: the hypervisor has no such guest.
        :raises ConsoleTypeUnavailable: the guest has no VNC server.
        """
        raise NotImplementedError()

    def get_diagnostics(self, instance) -> dict[str, Any]:
        """The hypervisor's own statistics of the guest, in whatever keys
        it names them (the pre-2.48 diagnostics)."""
        raise NotImplementedError()

    def get_instance_diagnostics(self, instance) -> dict[str, Any]:
        """The guest's statistics in the standard shape of 2.48: ``state``,
        ``driver``, ``hypervisor``, ``hypervisor_os``, ``uptime``,
        ``config_drive``, ``num_cpus``/``num_nics``/``num_disks``,
        ``memory_details`` and lists ``cpu_details``, ``nic_details``,
        ``disk_details``."""
        raise NotImplementedError()

    def set_admin_password(self, instance, new_pass: str) -> None:
        """Set the guest's administrator password.

        :raises InstanceAgentNotEnabled: no agent in the guest to ask.
        :raises SetAdminPasswdNotSupported: the hypervisor cannot.
        """
        raise NotImplementedError()

    def trigger_crash_dump(self, instance) -> None:
        """Have the guest's kernel dump its memory (an NMI).

        :raises TriggerCrashDumpNotSupported: the hypervisor cannot.
        :raises InstanceNotRunning: the guest is not running.
        """
        raise NotImplementedError()

    def get_host_uptime(self) -> str:
        """The host's ``uptime`` line."""
        raise NotImplementedError()

    def set_host_enabled(self, enabled: bool) -> str:
        """Let the hypervisor host take new guests or not; ``"enabled"``
        or ``"disabled"``."""
        raise NotImplementedError()

    def host_maintenance_mode(self, host: str, mode: bool) -> str:
        """Put the host into maintenance (``mode`` true) or take it out;
        ``"on_maintenance"`` or ``"off_maintenance"``."""
        raise NotImplementedError()

    def host_power_action(self, action: str) -> str:
        """Start up, shut down or reboot the hypervisor host itself;
        returns the action done."""
        raise NotImplementedError()


def upload_snapshot(context, image_api, image_id: str, disk_format: str, data) -> None:
    """Give the queued image ``image_id`` its formats, then its data (a
    file object or an iterator of bytes): the image service takes no data
    for an image whose formats are unset."""
    image_api.update(
        context, image_id, {"disk_format": disk_format, "container_format": "bare"}
    )
    image_api.upload(context, image_id, data)


def load_compute_driver(compute_driver: str | None) -> ComputeDriver:
    """The driver ``compute_driver`` names (``fake.FakeDriver``), relative
    to ``nova.virt``.

    :raises DriverNotConfigured: no driver is named.
    :raises ClassNotFound: the name does not import.
    """
    if not compute_driver:
        raise exception.DriverNotConfigured(reason="compute_driver is empty")
    try:
        driver = importutils.import_object_ns("nova.virt", compute_driver)
    except ImportError as exc:
        raise exception.ClassNotFound(class_name=compute_driver, exception=exc) from exc
    LOG.info("Loaded compute driver %s", compute_driver)
    return driver
