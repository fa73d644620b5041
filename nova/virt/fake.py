"""An in-memory hypervisor, for tests and the all-in-one.

Guests are entries in a dictionary: spawning, stopping and deleting them
are instant and cost nothing, so one process can pose as a host of any
size. The size it reports is set in ``[fake_driver]``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import threading
import time

from oslo_log import log as logging

import nova.conf
from nova import exception
from nova.image import api as image_api
from nova.states import power_state, task_states, vm_states
from nova.virt import configdrive, driver

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


@dataclasses.dataclass
class FakeGuest:
    name: str
    uuid: str
    state: int
    vcpus: int
    memory_mb: int
    disk_gb: int
    # What was done to the guest, for tests to see (never the password).
    crash_dumps: int = 0
    password_changes: int = 0
    # The image a rescued guest boots from; None when not rescued.
    rescue_image_ref: str | None = None
    # Port ids of the interfaces hot-plugged into it.
    attached_ports: list[str] = dataclasses.field(default_factory=list)
    # Mountpoint -> the connection info of the volume attached there.
    attached_volumes: dict[str, dict] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class FakeLiveMigration:
    """A live migration running on this host, which an abort or a forced
    completion ends early."""

    ended: threading.Event = dataclasses.field(default_factory=threading.Event)
    aborted: bool = False


class FakeDriver(driver.ComputeDriver):
    """A hypervisor of one node named after ``[DEFAULT] host``."""

    def __init__(self, image: image_api.ImageAPI | None = None) -> None:
        self._guests: dict[str, FakeGuest] = {}
        self._lock = threading.Lock()
        self._host: str | None = None
        self._started_at = time.time()
        self._image_api = image
        self._event_listener = None
        # Guests that left this host for a resize or cold migration, kept
        # (powered off) until it is confirmed or reverted.
        self._resize_sources: dict[str, FakeGuest] = {}
        # Live migrations from this host in progress, by instance uuid.
        self._live_migrations: dict[str, FakeLiveMigration] = {}

    def init_host(self, host: str) -> None:
        configdrive.check_format()
        self._host = host

    def get_available_nodes(self, refresh: bool = False) -> list[str]:
        return [self._host or CONF.host]

    def get_available_resource(self, nodename: str) -> dict:
        options = CONF.fake_driver
        with self._lock:
            guests = list(self._guests.values())
        return {
            "vcpus": options.vcpus,
            "memory_mb": options.memory_mb,
            "local_gb": options.local_gb,
            "vcpus_used": sum(g.vcpus for g in guests),
            "memory_mb_used": sum(g.memory_mb for g in guests),
            "local_gb_used": sum(g.disk_gb for g in guests),
            "hypervisor_type": "fake",
            "hypervisor_version": 1000,
            "hypervisor_hostname": nodename,
            "cpu_info": json.dumps({"model": "fake", "vendor": "fake"}),
            "disk_available_least": options.local_gb - sum(g.disk_gb for g in guests),
            "supported_instances": [
                ["x86_64", "fake", "hvm"],
                ["i686", "fake", "hvm"],
                ["aarch64", "fake", "hvm"],
            ],
        }

    def list_instances(self) -> list[str]:
        with self._lock:
            return [guest.name for guest in self._guests.values()]

    def list_instance_uuids(self) -> list[str]:
        with self._lock:
            return list(self._guests)

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
        time.sleep(CONF.fake_driver.spawn_seconds)
        if CONF.fake_driver.fail_spawn:
            raise exception.NovaException(
                f"The fake hypervisor of {self._host} is set to fail spawns."
            )
        if configdrive.required_by(instance, image_meta):
            # A real drive, in the instance's directory as libvirt's is, so
            # tests (and other processes) can open what a guest would mount.
            directory = config_drive_dir(instance)
            os.makedirs(directory, exist_ok=True)
            configdrive.write_config_drive(
                os.path.join(directory, configdrive.FILE_NAME),
                instance,
                injected_files,
                admin_password,
            )
        state = power_state.RUNNING if power_on else power_state.SHUTDOWN
        with self._lock:
            self._guests[instance.uuid] = _guest_of(instance, state)
        self._report_plugged(instance, network_info)
        if vifs_plugged is not None:
            vifs_plugged()

    def register_instance_event_listener(self, callback) -> None:
        self._event_listener = callback

    def _report_plugged(self, instance, network_info) -> None:
        """Plug nothing, but say each port is plugged, as Neutron would
        once a real hypervisor's tap appeared on its switch: the build
        then waits and goes on exactly as on a real host."""
        if self._event_listener is None:
            return
        for vif in network_info or ():
            if not vif.get("active"):
                self._event_listener(
                    driver.InstanceEvent(
                        instance.uuid, "network-vif-plugged", tag=vif["id"]
                    )
                )

    def attach_interface(self, context, instance, image_meta, vif) -> None:
        guest = self._guest(instance)
        with self._lock:
            if vif["id"] not in guest.attached_ports:
                guest.attached_ports.append(vif["id"])

    def detach_interface(self, context, instance, vif) -> None:
        guest = self._guest(instance)
        with self._lock:
            if vif["id"] in guest.attached_ports:
                guest.attached_ports.remove(vif["id"])

    def get_volume_connector(self, instance) -> dict:
        """A host reaching block storage over the network, as a real
        host's connector says: its address, name and an initiator name."""
        return {
            "ip": "127.0.0.1",
            "host": (self._host or CONF.host),
            "initiator": f"iqn.2010-10.org.openstack:{(self._host or CONF.host)}",
            "platform": "x86_64",
            "os_type": "linux",
            "multipath": False,
            "do_local_attach": False,
        }

    def attach_volume(
        self,
        context,
        connection_info,
        instance,
        mountpoint,
        disk_bus=None,
        device_type=None,
        encryption=None,
    ) -> None:
        guest = self._guest(instance)
        with self._lock:
            if mountpoint in guest.attached_volumes:
                raise exception.InvalidVolume(
                    reason=f"{mountpoint} of {instance.uuid} is in use"
                )
            guest.attached_volumes[mountpoint] = connection_info

    def detach_volume(
        self, context, connection_info, instance, mountpoint, encryption=None
    ) -> None:
        guest = self._guest(instance)
        with self._lock:
            guest.attached_volumes.pop(mountpoint, None)

    def destroy(
        self,
        context,
        instance,
        network_info=None,
        block_device_info=None,
        destroy_disks: bool = True,
    ) -> None:
        with self._lock:
            if self._guests.pop(instance.uuid, None) is None:
                LOG.debug("Instance %s was not on this fake host", instance.uuid)
        if destroy_disks:
            shutil.rmtree(config_drive_dir(instance), ignore_errors=True)

    def _guest(self, instance) -> FakeGuest:
        with self._lock:
            guest = self._guests.get(instance.uuid)
        if guest is None:
            raise exception.InstanceNotFound(instance_id=instance.uuid)
        return guest

    def _set_state(self, instance, state: int) -> None:
        self._guest(instance).state = state

    def get_info(self, instance, use_cache: bool = True) -> driver.InstanceInfo:
        guest = self._guest(instance)
        return driver.InstanceInfo(state=guest.state, internal_id=guest.name)

    def power_off(self, instance, timeout: int = 0, retry_interval: int = 0) -> None:
        self._set_state(instance, power_state.SHUTDOWN)

    def power_on(self, context, instance, network_info, block_device_info=None):
        # Guests live in memory, so a restarted compute has none: powering
        # on defines the guest again from the instance, as libvirt's hard
        # reboot does from the domain XML.
        with self._lock:
            self._guests[instance.uuid] = _guest_of(instance, power_state.RUNNING)

    def reboot(
        self, context, instance, network_info, reboot_type, block_device_info=None
    ) -> None:
        self._set_state(instance, power_state.RUNNING)

    def pause(self, instance) -> None:
        self._set_state(instance, power_state.PAUSED)

    def unpause(self, instance) -> None:
        self._set_state(instance, power_state.RUNNING)

    def suspend(self, context, instance) -> None:
        self._set_state(instance, power_state.SUSPENDED)

    def resume(self, context, instance, network_info, block_device_info=None):
        self._set_state(instance, power_state.RUNNING)

    def rescue(
        self, context, instance, network_info, image_meta, rescue_password
    ) -> None:
        guest = self._guest(instance)
        guest.rescue_image_ref = image_meta.id
        guest.state = power_state.RUNNING

    def unrescue(self, context, instance) -> None:
        guest = self._guest(instance)
        guest.rescue_image_ref = None
        guest.state = power_state.RUNNING

    def get_console_output(self, context, instance) -> str:
        """A short boot log shaped like a real serial console's: several
        lines, each ending in a newline (clients count lines of a tail)."""
        guest = self._guest(instance)
        return "".join(
            f"{line}\n"
            for line in (
                "FAKE CONSOLE OUTPUT",
                "[    0.000000] Linux version 6.1.0-fake",
                f"[    0.120000] Booting guest {guest.uuid}",
                f"[    1.500000] Memory: {guest.memory_mb}M, {guest.vcpus} vCPU(s)",
                "[    2.000000] Run /sbin/init as init process",
                f"{guest.name} login:",
            )
        )

    def snapshot(self, context, instance, image_id: str, update_task_state) -> None:
        # A small payload that names its guest: the image is real, so what
        # is booted from it later can be told apart from other images.
        self._guest(instance)
        update_task_state(task_state=task_states.IMAGE_PENDING_UPLOAD)
        update_task_state(
            task_state=task_states.IMAGE_UPLOADING,
            expected_state=task_states.IMAGE_PENDING_UPLOAD,
        )
        if self._image_api is None:
            self._image_api = image_api.get_image_api()
        payload = f"fake snapshot of {instance.uuid}\n".encode() * 16
        driver.upload_snapshot(context, self._image_api, image_id, "raw", payload)

    def get_vnc_console(self, context, instance) -> dict:
        # No VNC server runs here; tests that need one start their own and
        # point [vnc] server_proxyclient_address and [fake_driver] vnc_port
        # at it.
        self._guest(instance)
        return {
            "host": CONF.vnc.server_proxyclient_address,
            "port": CONF.fake_driver.vnc_port,
        }

    def get_spice_console(self, context, instance) -> dict:
        # Fixed details, as for VNC: [fake_driver] spice_port and
        # spice_tls_port at [spice] server_proxyclient_address.
        self._guest(instance)
        return {
            "host": CONF.spice.server_proxyclient_address,
            "port": CONF.fake_driver.spice_port,
            "tls_port": CONF.fake_driver.spice_tls_port,
        }

    def get_serial_console(self, context, instance) -> dict:
        # Fixed details, as for VNC: tests standing in a TCP listener for
        # the guest's serial port point [serial_console] proxyclient_address
        # and [fake_driver] serial_port at it.
        self._guest(instance)
        return {
            "host": CONF.serial_console.proxyclient_address,
            "port": CONF.fake_driver.serial_port,
        }

    def get_diagnostics(self, instance) -> dict:
        guest = self._guest(instance)
        return {
            "cpu0_time": 17300000000,
            "memory": guest.memory_mb * 1024,
            "vda_read": 262144,
            "vda_read_req": 112,
            "vda_write": 5778432,
            "vda_write_req": 488,
            "vda_errors": -1,
            "vnet1_rx": 2070139,
            "vnet1_rx_packets": 26701,
            "vnet1_tx": 140208,
            "vnet1_tx_packets": 662,
        }

    def get_instance_diagnostics(self, instance) -> dict:
        guest = self._guest(instance)
        return {
            "state": power_state.STATE_MAP[guest.state],
            # 2.48's driver is one of the real drivers' names; like
            # upstream's fake, this one poses as libvirt there.
            "driver": "libvirt",
            "hypervisor": "fake",
            "hypervisor_os": "fake-os",
            "uptime": 46664,
            "config_drive": False,
            "num_cpus": guest.vcpus,
            "num_nics": 1,
            "num_disks": 1,
            "memory_details": {"maximum": guest.memory_mb, "used": 0},
            "cpu_details": [
                {"id": cpu, "time": 17300000000, "utilisation": 15}
                for cpu in range(guest.vcpus)
            ],
            "nic_details": [
                {
                    "mac_address": "01:23:45:67:89:ab",
                    "rx_octets": 2070139,
                    "rx_errors": 100,
                    "rx_drop": 200,
                    "rx_packets": 26701,
                    "rx_rate": 300,
                    "tx_octets": 140208,
                    "tx_errors": 400,
                    "tx_drop": 500,
                    "tx_packets": 662,
                    "tx_rate": 600,
                }
            ],
            "disk_details": [
                {
                    "read_bytes": 262144,
                    "read_requests": 112,
                    "write_bytes": 5778432,
                    "write_requests": 488,
                    "errors_count": 1,
                }
            ],
        }

    def set_admin_password(self, instance, new_pass: str) -> None:
        self._guest(instance).password_changes += 1

    def trigger_crash_dump(self, instance) -> None:
        self._guest(instance).crash_dumps += 1

    def get_host_uptime(self) -> str:
        up = int(time.time() - self._started_at)
        return (
            f" {time.strftime('%H:%M:%S')} up {up // 86400} days, "
            f"{up % 86400 // 3600:2d}:{up % 3600 // 60:02d},  1 user,  "
            "load average: 0.00, 0.00, 0.00"
        )

    # Host-level operations only report what they would have done.

    def set_host_enabled(self, enabled: bool) -> str:
        return "enabled" if enabled else "disabled"

    def host_maintenance_mode(self, host: str, mode: bool) -> str:
        return "on_maintenance" if mode else "off_maintenance"

    def host_power_action(self, action: str) -> str:
        return action

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
        guest = self._guest(instance)
        # As libvirt: a local root disk never shrinks.
        if flavor.root_gb < instance.flavor.root_gb:
            raise exception.InstanceFaultRollback(
                exception.ResizeError(reason="Unable to resize disk down.")
            )
        with self._lock:
            guest.state = power_state.SHUTDOWN
            self._resize_sources[instance.uuid] = self._guests.pop(instance.uuid)
        return json.dumps([{"path": f"fake/{instance.uuid}/disk", "type": "qcow2"}])

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
        # Making the guest on the destination takes as long as a spawn.
        time.sleep(CONF.fake_driver.spawn_seconds)
        state = power_state.RUNNING if power_on else power_state.SHUTDOWN
        with self._lock:
            self._guests[instance.uuid] = _guest_of(instance, state)
        self._report_plugged(instance, network_info)

    def confirm_migration(self, context, migration, instance, network_info) -> None:
        with self._lock:
            self._resize_sources.pop(instance.uuid, None)

    def finish_revert_migration(
        self,
        context,
        instance,
        network_info,
        migration,
        block_device_info=None,
        power_on: bool = True,
    ) -> None:
        with self._lock:
            guest = self._resize_sources.pop(instance.uuid, None)
        if guest is None:
            # This fake host was restarted meanwhile: define it again.
            guest = _guest_of(instance, power_state.SHUTDOWN)
        guest.state = power_state.RUNNING if power_on else power_state.SHUTDOWN
        with self._lock:
            self._guests[instance.uuid] = guest

    # -- live migration -----------------------------------------------------

    def check_can_live_migrate_destination(
        self,
        context,
        instance,
        src_compute_info,
        dst_compute_info,
        block_migration: bool = False,
        disk_over_commit: bool = False,
    ) -> dict:
        data = {"block_migration": block_migration, "dest": self._host}
        if block_migration is None:
            # "auto": a marker in this host's instances directory; the
            # source sees it only if the two share their storage.
            os.makedirs(CONF.instances_path, exist_ok=True)
            marker = f".shared-check-{instance.uuid}"
            with open(os.path.join(CONF.instances_path, marker), "w"):
                pass
            data["shared_storage_marker"] = marker
        return data

    def cleanup_live_migration_destination_check(
        self, context, dest_check_data
    ) -> None:
        pass

    def check_can_live_migrate_source(
        self, context, instance, dest_check_data, block_device_info=None
    ) -> dict:
        self._guest(instance)
        data = dict(dest_check_data)
        if data.get("block_migration") is None:
            # Copy the disks unless the destination's marker is here too.
            marker = data.get("shared_storage_marker", "")
            shared = bool(marker) and os.path.exists(
                os.path.join(CONF.instances_path, marker)
            )
            data["block_migration"] = not shared
        return data

    def pre_live_migration(
        self, context, instance, block_device_info, network_info, disk_info,
        migrate_data,
    ) -> dict:  # fmt: skip
        marker = (migrate_data or {}).get("shared_storage_marker")
        if marker:
            with contextlib.suppress(FileNotFoundError):
                os.remove(os.path.join(CONF.instances_path, marker))
        return migrate_data

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
        # The guest takes as long to move as to spawn, unless the move is
        # forced to complete or aborted; one that is not here cannot.
        migration = FakeLiveMigration()
        with self._lock:
            self._live_migrations[instance.uuid] = migration
        try:
            migration.ended.wait(CONF.fake_driver.spawn_seconds)
        finally:
            with self._lock:
                self._live_migrations.pop(instance.uuid, None)
        if migration.aborted:
            recover_method(
                context, instance, dest, migrate_data, migration_status="cancelled"
            )
            return
        try:
            self._guest(instance)
        except exception.InstanceNotFound:
            recover_method(context, instance, dest, migrate_data)
            return
        post_method(context, instance, dest, block_migration, migrate_data)

    def _live_migration_of(self, instance) -> FakeLiveMigration:
        with self._lock:
            migration = self._live_migrations.get(instance.uuid)
        if migration is None:
            raise exception.NovaException(
                f"No live migration of {instance.uuid} is running on {self._host}"
            )
        return migration

    def live_migration_force_complete(self, instance) -> None:
        self._live_migration_of(instance).ended.set()

    def live_migration_abort(self, instance) -> None:
        migration = self._live_migration_of(instance)
        migration.aborted = True
        migration.ended.set()

    def post_live_migration_at_source(self, context, instance, network_info) -> None:
        with self._lock:
            self._guests.pop(instance.uuid, None)

    def post_live_migration_at_destination(
        self,
        context,
        instance,
        network_info,
        block_migration: bool = False,
        block_device_info=None,
    ) -> None:
        state = (
            power_state.PAUSED
            if instance.vm_state == vm_states.PAUSED
            else power_state.RUNNING
        )
        with self._lock:
            self._guests[instance.uuid] = _guest_of(instance, state)

    def rollback_live_migration_at_destination(
        self,
        context,
        instance,
        network_info,
        block_device_info,
        destroy_disks: bool = True,
        migrate_data=None,
    ) -> None:
        pass


def config_drive_dir(instance) -> str:
    """Where the fake guest of ``instance`` keeps its config drive."""
    return os.path.join(CONF.instances_path, instance.uuid)


def _guest_of(instance, state: int) -> FakeGuest:
    """The fake guest of ``instance``, sized by its flavor."""
    flavor = instance.flavor
    return FakeGuest(
        name=instance.name,
        uuid=instance.uuid,
        state=state,
        vcpus=flavor.vcpus,
        memory_mb=flavor.memory_mb,
        disk_gb=flavor.root_gb + flavor.ephemeral_gb,
    )
