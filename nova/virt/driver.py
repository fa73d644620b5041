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


@dataclasses.dataclass(frozen=True)
class InstanceEvent:
    """What a network service would report about a guest's port, reported
    by a driver that stands in for it (the fake driver):
    ``network-vif-plugged`` with the port id as ``tag``."""

    uuid: str
    name: str
    tag: str | None = None
    status: str = "completed"


class ComputeDriver:
    """Base class of virt drivers.

    A method a driver does not implement raises NotImplementedError, except
    the optional hooks (``init_host``, ``cleanup_host``,
    ``register_event_listener``, ``manage_image_cache``,
    ``post_live_migration``), which do nothing. A driver is given what it
    needs of the network and block storage services as arguments
    (``network_info``, a :class:`nova.network.model.NetworkInfo`;
    ``block_device_info``; a volume's ``connection_info``) and never calls
    those services itself.
    """

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
        vifs_plugged=None,
    ) -> None:
        """Create and (by default) start the guest. A failed spawn leaves
        nothing behind.

        ``vifs_plugged``, when given, is called once the VIFs of
        ``network_info`` are plugged and before the guest runs: it returns
        when the network service reported them plugged (a failure raises,
        and the spawn fails with it)."""
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

    def register_instance_event_listener(self, callback) -> None:
        """Have ``callback(InstanceEvent)`` called for each event the driver
        reports in the network service's stead; drivers whose ports the
        network service's agents plug (it reports them) ignore it."""

    def manage_image_cache(self, context, all_instances) -> None:
        """Drop cached images none of ``all_instances`` (this host's) uses."""

    def get_vnc_console(self, context, instance) -> dict[str, Any]:
        """Where the guest's VNC server listens, as the console proxy
        reaches it: ``{"host": address, "port": port}``.

        :raises InstanceNotFound: the hypervisor has no such guest.
        :raises ConsoleTypeUnavailable: the guest has no VNC server.
        """
        raise NotImplementedError()

    def get_spice_console(self, context, instance) -> dict[str, Any]:
        """Where the guest's SPICE server listens, as the console proxy
        reaches it: ``{"host", "port", "tls_port"}``.

        :raises InstanceNotFound: the hypervisor has no such guest.
        :raises ConsoleTypeUnavailable: the guest has no SPICE server.
        """
        raise NotImplementedError()

    def get_serial_console(self, context, instance) -> dict[str, Any]:
        """Where the guest's serial port listens, as the serial proxy
        reaches it: ``{"host", "port"}``.

        :raises InstanceNotFound: the hypervisor has no such guest.
        :raises ConsoleTypeUnavailable: the guest's serial port is no listener.
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

    # -- rebuild ------------------------------------------------------------

    def rebuild(
        self,
        context,
        instance,
        image_meta,
        injected_files,
        admin_password,
        allocations,
        bdms,
        detach_block_devices,
        attach_block_devices,
        network_info=None,
        evacuate: bool = False,
        block_device_info=None,
        preserve_ephemeral: bool = False,
    ) -> None:
        """Remake the guest from ``image_meta`` in one step of the driver's
        own, for hypervisors that can do better than the compute manager's
        destroy, then spawn. Optional: a driver without it raises
        NotImplementedError and the manager rebuilds the default way.

        ``detach_block_devices(context, bdms)`` and
        ``attach_block_devices(context, instance, bdms)`` are the manager's
        callbacks for the instance's volumes, around the new disk. With
        ``evacuate`` the guest is made anew on this host (its old host is
        gone), so there is nothing to clean up first; with
        ``preserve_ephemeral`` the ephemeral disk is kept.
        """
        raise NotImplementedError()

    # -- network interfaces -------------------------------------------------

    def plug_vifs(self, instance, network_info) -> None:
        """Connect the instance's VIFs (``network_info``, a NetworkInfo) to
        their networks on this host, before the guest starts using them.
        The counterpart is :meth:`unplug_vifs`."""
        raise NotImplementedError()

    def unplug_vifs(self, instance, network_info) -> None:
        """Disconnect the VIFs of ``network_info`` from their networks on
        this host; a VIF that is not plugged is no error."""
        raise NotImplementedError()

    def attach_interface(self, context, instance, image_meta, vif) -> None:
        """Hot-plug ``vif`` (a VIF of the network model) into the running
        guest; ``image_meta`` says which NIC model the guest expects.

        :raises NovaException: (a subclass naming the cause) the interface
            could not be attached.
        """
        raise NotImplementedError()

    def detach_interface(self, context, instance, vif) -> None:
        """Hot-unplug ``vif`` from the guest.

        :raises NovaException: (a subclass naming the cause) the interface
            could not be detached.
        """
        raise NotImplementedError()

    # -- volumes ------------------------------------------------------------

    def get_volume_connector(self, instance) -> dict[str, Any]:
        """How this host reaches block storage, for the volume API's
        ``attachment_update``: ``{"ip": ..., "host": ..., "initiator": ...}``
        and whatever else the host's storage transports need."""
        raise NotImplementedError()

    def attach_volume(
        self,
        context,
        connection_info: dict[str, Any],
        instance,
        mountpoint: str,
        disk_bus: str | None = None,
        device_type: str | None = None,
        encryption: dict[str, Any] | None = None,
    ) -> None:
        """Connect the volume ``connection_info`` describes (from the volume
        API's attachment) and give it to the guest at ``mountpoint``
        (``/dev/vdb``), on ``disk_bus`` as a ``device_type`` (disk, cdrom).

        :raises NovaException: (a subclass naming the cause) the volume
            could not be attached, for one because the guest has no free
            device left.
        """
        raise NotImplementedError()

    def detach_volume(
        self,
        context,
        connection_info: dict[str, Any],
        instance,
        mountpoint: str,
        encryption: dict[str, Any] | None = None,
    ) -> None:
        """Take the volume at ``mountpoint`` away from the guest and
        disconnect it from this host."""
        raise NotImplementedError()

    def swap_volume(
        self,
        context,
        old_connection_info: dict[str, Any],
        new_connection_info: dict[str, Any],
        instance,
        mountpoint: str,
        resize_to: int,
    ) -> None:
        """Copy the guest's volume at ``mountpoint`` onto the new volume and
        switch the guest to it while it runs; the new volume is grown to
        ``resize_to`` GiB when it is larger (0: keep its size)."""
        raise NotImplementedError()

    def extend_volume(
        self, context, connection_info: dict[str, Any], instance, requested_size: int
    ) -> None:
        """Tell the guest its volume (already grown by the block storage
        service) now has ``requested_size`` bytes."""
        raise NotImplementedError()

    # -- resize and cold migration ------------------------------------------

    def migrate_disk_and_power_off(
        self,
        context,
        instance,
        dest: str,
        flavor,
        network_info,
        block_device_info=None,
        timeout: int = 0,
        retry_interval: int = 0,
    ) -> str:
        """On the source host: stop the guest (cleanly within ``timeout``
        seconds, asking every ``retry_interval``) and copy its disks to the
        host at address ``dest`` for ``flavor``.

        :returns: the disks sent, as JSON text, for :meth:`finish_migration`.
        :raises NovaException: (a subclass naming the cause) the disks were
            not sent, for one because they cannot shrink to ``flavor``; the
            guest is left as it was.
        """
        raise NotImplementedError()

    def finish_migration(
        self,
        context,
        migration,
        instance,
        disk_info: str,
        network_info,
        image_meta,
        resize_instance: bool,
        allocations,
        block_device_info=None,
        power_on: bool = True,
    ) -> None:
        """On the destination host: make the guest from the disks
        :meth:`migrate_disk_and_power_off` sent (``disk_info``), growing
        them to the new flavor when ``resize_instance``, and start it if
        ``power_on``. The source keeps its copy until the resize is
        confirmed or reverted."""
        raise NotImplementedError()

    def confirm_migration(self, context, migration, instance, network_info) -> None:
        """On the source host, once the user confirmed the resize: delete
        what is left of the guest there."""
        raise NotImplementedError()

    def finish_revert_migration(
        self,
        context,
        instance,
        network_info,
        migration,
        block_device_info=None,
        power_on: bool = True,
    ) -> None:
        """On the source host, when the user reverted the resize: bring the
        guest back from the disks kept there, started if ``power_on``."""
        raise NotImplementedError()

    # -- live migration -----------------------------------------------------

    def check_can_live_migrate_destination(
        self,
        context,
        instance,
        src_compute_info,
        dst_compute_info,
        block_migration: bool = False,
        disk_over_commit: bool = False,
    ):
        """On the destination host: can it take the guest from the source
        (``src_compute_info`` and ``dst_compute_info`` describe both compute
        nodes)? ``block_migration`` copies the disks too.

        :returns: the driver's record of the migration (``migrate_data``),
            handed to every later step.
        :raises NovaException: (a subclass naming the cause) it cannot.
        """
        raise NotImplementedError()

    def cleanup_live_migration_destination_check(
        self, context, dest_check_data
    ) -> None:
        """On the destination host: drop what
        :meth:`check_can_live_migrate_destination` left behind for the
        source's check (``dest_check_data`` is its result)."""
        raise NotImplementedError()

    def check_can_live_migrate_source(
        self, context, instance, dest_check_data, block_device_info=None
    ):
        """On the source host: can the guest go, given the destination's
        answer ``dest_check_data``?

        :returns: ``dest_check_data`` completed with the source's side.
        :raises NovaException: (a subclass naming the cause) it cannot.
        """
        raise NotImplementedError()

    def pre_live_migration(
        self,
        context,
        instance,
        block_device_info,
        network_info,
        disk_info,
        migrate_data,
    ):
        """On the destination host, before the guest moves: plug its VIFs,
        connect its volumes and make room for its disks.

        :returns: ``migrate_data`` with what the destination prepared.
        :raises NovaException: (a subclass naming the cause) the destination
            could not be prepared.
        """
        raise NotImplementedError()

    def live_migration(
        self,
        context,
        instance,
        dest: str,
        post_method,
        recover_method,
        block_migration: bool = False,
        migrate_data=None,
    ) -> None:
        """On the source host: move the running guest to the host ``dest``.

        Returns at once or when done, as the driver chooses; when the guest
        has moved the driver calls ``post_method(context, instance, dest,
        block_migration, migrate_data)``, and if it failed
        ``recover_method(context, instance, dest, migrate_data)``.
        """
        raise NotImplementedError()

    def live_migration_force_complete(self, instance) -> None:
        """Make a live migration that does not converge finish (by pausing
        the guest or switching to post-copy)."""
        raise NotImplementedError()

    def live_migration_abort(self, instance) -> None:
        """Stop a live migration in progress; the guest stays on the
        source."""
        raise NotImplementedError()

    def post_live_migration(
        self, context, instance, block_device_info, migrate_data=None
    ) -> None:
        """On the source host, after the guest moved: disconnect its volumes
        there. Nothing by default, for drivers with nothing to do."""

    def post_live_migration_at_source(self, context, instance, network_info) -> None:
        """On the source host, after the guest moved: unplug its VIFs there."""
        raise NotImplementedError()

    def post_live_migration_at_destination(
        self,
        context,
        instance,
        network_info,
        block_migration: bool = False,
        block_device_info=None,
    ) -> None:
        """On the destination host, after the guest arrived: make its
        definition permanent there."""
        raise NotImplementedError()

    def rollback_live_migration_at_destination(
        self,
        context,
        instance,
        network_info,
        block_device_info,
        destroy_disks: bool = True,
        migrate_data=None,
    ) -> None:
        """On the destination host, after a failed live migration: undo
        :meth:`pre_live_migration` (unplug VIFs, disconnect volumes) and
        delete the copied disks if ``destroy_disks``."""
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
