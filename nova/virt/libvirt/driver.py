"""Guests as libvirt domains: QEMU/KVM (or emulation) on this host.

A guest's files live in ``<instances_path>/<uuid>/``: ``disk`` (a qcow2
overlay over the cached image), ``disk.local`` (ephemeral), ``disk.swap``
and ``console.log`` (its serial port). The domain's uuid is the instance's
and its name ``instance_name_template``'s, so both sides find each other.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from oslo_log import log as logging
from oslo_utils import strutils

import nova.conf
from nova import exception
from nova.console import serial as serial_ports
from nova.image import api as image_api
from nova.states import power_state, task_states
from nova.virt import configdrive, driver
from nova.virt.libvirt import config, host, imagebackend, imagecache
from nova.virt.libvirt import vif as vifs

try:
    import libvirt
except ImportError:  # the driver then fails to start, with a reason
    libvirt = None

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# get_console_output returns at most the log's last 100 KiB, as upstream.
MAX_CONSOLE_BYTES = 100 * 1024
# The rescue guest's config drive, beside the instance's own.
RESCUE_CONFIG_DRIVE = f"{configdrive.FILE_NAME}.rescue"
# How often a clean shutdown polls the domain's state.
SHUTDOWN_POLL_SECONDS = 0.5

_DOMAIN_STATES = {
    0: power_state.NOSTATE,  # VIR_DOMAIN_NOSTATE
    1: power_state.RUNNING,  # VIR_DOMAIN_RUNNING
    2: power_state.RUNNING,  # VIR_DOMAIN_BLOCKED: running, idle
    3: power_state.PAUSED,  # VIR_DOMAIN_PAUSED
    4: power_state.SHUTDOWN,  # VIR_DOMAIN_SHUTDOWN: shutting down
    5: power_state.SHUTDOWN,  # VIR_DOMAIN_SHUTOFF
    6: power_state.CRASHED,  # VIR_DOMAIN_CRASHED
    7: power_state.SUSPENDED,  # VIR_DOMAIN_PMSUSPENDED
}
# interfaceStats() answers in this order.
_NIC_STATS = (
    "rx",
    "rx_packets",
    "rx_errors",
    "rx_drop",
    "tx",
    "tx_packets",
    "tx_errors",
    "tx_drop",
)
_EVENT_STATES = {
    2: power_state.RUNNING,  # VIR_DOMAIN_EVENT_STARTED
    3: power_state.PAUSED,  # VIR_DOMAIN_EVENT_SUSPENDED
    4: power_state.RUNNING,  # VIR_DOMAIN_EVENT_RESUMED
    5: power_state.SHUTDOWN,  # VIR_DOMAIN_EVENT_STOPPED
    7: power_state.SUSPENDED,  # VIR_DOMAIN_EVENT_PMSUSPENDED
    8: power_state.CRASHED,  # VIR_DOMAIN_EVENT_CRASHED
}


def connection_uri() -> str:
    """``[libvirt] connection_uri``, else the system URI of ``virt_type``."""
    if CONF.libvirt.connection_uri:
        return CONF.libvirt.connection_uri
    return "qemu:///system"


class LibvirtDriver(driver.ComputeDriver):
    def __init__(self, image: image_api.ImageAPI | None = None) -> None:
        if libvirt is None:
            raise exception.HypervisorUnavailable(
                reason="the libvirt driver needs the libvirt-python package"
            )
        self._image_api = image
        self._event_listener: Callable[[driver.LifecycleEvent], None] | None = None
        self._host = host.Host(connection_uri(), self._lifecycle_event)
        self.image_cache = imagebackend.ImageCache()
        self.image_cache_manager = imagecache.ImageCacheManager(self.image_cache)

    # -- host ---------------------------------------------------------------

    def init_host(self, host_name: str) -> None:
        conn = self._host.get_connection()
        LOG.info(
            "libvirt %s, %s %s at %s",
            conn.getLibVersion(),
            conn.getType(),
            conn.getVersion(),
            self._host.uri,
        )
        os.makedirs(CONF.instances_path, exist_ok=True)
        configdrive.check_format()

    def cleanup_host(self, host_name: str) -> None:
        self._host.close()

    def register_event_listener(self, callback) -> None:
        self._event_listener = callback

    def _lifecycle_event(self, uuid: str, event: int) -> None:
        state = _EVENT_STATES.get(event)
        if state is None or self._event_listener is None:
            return
        if state == power_state.SHUTDOWN and self._has_managed_save(uuid):
            state = power_state.SUSPENDED
        self._event_listener(driver.LifecycleEvent(uuid, state))

    def _has_managed_save(self, uuid: str) -> bool:
        try:
            domain = self._host.get_connection().lookupByUUIDString(uuid)
            return bool(domain.hasManagedSaveImage(0))
        except libvirt.libvirtError:
            return False

    def get_available_nodes(self, refresh: bool = False) -> list[str]:
        return [self._host.get_connection().getHostname()]

    def _host_cpu(self, conn) -> dict[str, Any]:
        caps = ET.fromstring(conn.getCapabilities())
        cpu = caps.find("host/cpu")
        topology = cpu.find("topology") if cpu is not None else None
        info = conn.getInfo()
        features = cpu.iterfind("feature") if cpu is not None else ()
        return {
            "arch": cpu.findtext("arch") if cpu is not None else info[0],
            "model": (cpu.findtext("model") if cpu is not None else None) or "",
            "vendor": (cpu.findtext("vendor") if cpu is not None else None) or "",
            "topology": {
                "sockets": int(topology.get("sockets")) if topology is not None else 1,
                "cores": int(topology.get("cores")) if topology is not None else 1,
                "threads": int(topology.get("threads")) if topology is not None else 1,
            },
            "features": sorted(f.get("name") for f in features),
        }

    def _supported_instances(self, conn) -> list[list[str]]:
        caps = ET.fromstring(conn.getCapabilities())
        supported = []
        for guest in caps.findall("guest"):
            arch = guest.find("arch")
            if arch is None:
                continue
            for domain in arch.findall("domain"):
                if domain.get("type") == CONF.libvirt.virt_type:
                    supported.append(
                        [
                            arch.get("name"),
                            CONF.libvirt.virt_type,
                            guest.findtext("os_type"),
                        ]
                    )
        return supported

    def _guest_usage(self) -> tuple[int, int]:
        """vCPUs and MiB of memory of the running guests."""
        vcpus = memory_mib = 0
        for domain in self._host.list_domains():
            if domain.isActive():
                state, max_kib, _, nr_vcpus, _ = domain.info()
                vcpus += nr_vcpus
                memory_mib += max_kib // 1024
        return vcpus, memory_mib

    def get_available_resource(self, nodename: str) -> dict[str, Any]:
        conn = self._host.get_connection()
        _arch, memory_mib, cpus = conn.getInfo()[:3]
        vcpus_used, guest_memory_mib = self._guest_usage()
        try:
            stats = conn.getMemoryStats(libvirt.VIR_NODE_MEMORY_STATS_ALL_CELLS)
            free_kib = stats["free"] + stats.get("buffers", 0) + stats.get("cached", 0)
            memory_used = memory_mib - free_kib // 1024
        except libvirt.libvirtError:
            # Drivers without host memory statistics: count the guests.
            memory_used = guest_memory_mib
        os.makedirs(CONF.instances_path, exist_ok=True)
        disk = os.statvfs(CONF.instances_path)
        total_gb = disk.f_frsize * disk.f_blocks // imagebackend.GiB
        free_gb = disk.f_frsize * disk.f_bavail // imagebackend.GiB
        return {
            "vcpus": cpus,
            "memory_mb": memory_mib,
            "local_gb": total_gb,
            "vcpus_used": vcpus_used,
            "memory_mb_used": memory_used,
            "local_gb_used": total_gb - free_gb,
            "hypervisor_type": conn.getType(),
            "hypervisor_version": conn.getVersion(),
            "hypervisor_hostname": nodename,
            "cpu_info": json.dumps(self._host_cpu(conn)),
            "disk_available_least": free_gb,
            "supported_instances": self._supported_instances(conn),
        }

    def list_instances(self) -> list[str]:
        return [domain.name() for domain in self._host.list_domains()]

    def list_instance_uuids(self) -> list[str]:
        return [domain.UUIDString() for domain in self._host.list_domains()]

    # -- files --------------------------------------------------------------

    @staticmethod
    def instance_dir(instance) -> str:
        return os.path.join(CONF.instances_path, instance.uuid)

    def console_log_path(self, instance) -> str:
        return os.path.join(self.instance_dir(instance), "console.log")

    def _images(self) -> image_api.ImageAPI:
        if self._image_api is None:
            self._image_api = image_api.get_image_api()
        return self._image_api

    def _create_disks(self, context, instance) -> list[config.GuestDisk]:
        flavor = instance.flavor
        directory = self.instance_dir(instance)
        disks = []
        if instance.image_ref:
            base = self.image_cache.fetch(context, self._images(), instance.image_ref)
            root = os.path.join(directory, "disk")
            imagebackend.create_overlay(base, root, flavor.root_gb * imagebackend.GiB)
            disks.append(config.GuestDisk(root, "vda"))
        if flavor.ephemeral_gb:
            path = os.path.join(directory, "disk.local")
            imagebackend.create_blank(path, flavor.ephemeral_gb * imagebackend.GiB)
            disks.append(config.GuestDisk(path, "vdb"))
        if flavor.swap:
            path = os.path.join(directory, "disk.swap")
            imagebackend.create_blank(path, flavor.swap * imagebackend.MiB)
            disks.append(config.GuestDisk(path, "vdc"))
        return disks

    def _create_config_drive(
        self,
        instance,
        image_meta,
        injected_files,
        admin_password,
        disks: list[config.GuestDisk],
        file_name: str = configdrive.FILE_NAME,
    ) -> config.GuestDisk:
        """Write the drive and say how the guest beside ``disks`` sees it."""
        path = os.path.join(self.instance_dir(instance), file_name)
        configdrive.write_config_drive(path, instance, injected_files, admin_password)
        return config.config_drive_disk(
            path, config.machine_type(image_meta), tuple(disks)
        )

    def _boot_files(self, context, instance) -> tuple[str | None, str | None]:
        """Cached kernel and ramdisk for direct kernel boot, if the image
        names them (``kernel_id`` / ``ramdisk_id``)."""
        kernel = ramdisk = None
        if instance.kernel_id:
            kernel = self.image_cache.fetch(context, self._images(), instance.kernel_id)
            if instance.ramdisk_id:
                ramdisk = self.image_cache.fetch(
                    context, self._images(), instance.ramdisk_id
                )
        return kernel, ramdisk

    @staticmethod
    def _serial_listeners(domain) -> list[tuple[str, int]]:
        """(address, port) of the domain's serial ports that are TCP
        listeners, from its XML."""
        devices = ET.fromstring(domain.XMLDesc(0)).find("devices")
        if devices is None:
            return []
        return [
            (source.get("host"), int(source.get("service")))
            for source in devices.findall("serial[@type='tcp']/source[@mode='bind']")
            if source.get("service")
        ]

    def _serial_port(self, instance) -> int | None:
        """The port of the guest's serial console when ``[serial_console]
        enabled``: the one its domain already has (a redefined guest keeps
        it), else a free one of the range."""
        if not CONF.serial_console.enabled:
            return None
        address = CONF.serial_console.proxyclient_address
        with contextlib.suppress(exception.InstanceNotFound):
            for host, port in self._serial_listeners(self._host.get_domain(instance)):
                if host == address:
                    return port
        in_use = {
            port
            for domain in self._host.list_domains()
            for host, port in self._serial_listeners(domain)
            if host == address
        }
        return serial_ports.acquire_port(address, in_use)

    def _define_domain(self, context, instance, image_meta, disks, network_info=None):
        """Define (not start) the domain of ``instance`` over ``disks``,
        with a NIC per VIF of ``network_info``."""
        kernel, ramdisk = self._boot_files(context, instance)
        guest = config.guest_config(
            instance,
            image_meta,
            disks,
            self.console_log_path(instance),
            kernel=kernel,
            ramdisk=ramdisk,
            serial_port=self._serial_port(instance),
            network_info=network_info,
        )
        return self._host.get_connection().defineXML(config.domain_xml(guest))

    # -- lifecycle ----------------------------------------------------------

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
        vifs_plugged: Callable[[], None] | None = None,
    ) -> None:
        os.makedirs(self.instance_dir(instance), exist_ok=True)
        try:
            self.plug_vifs(instance, network_info)
            disks = self._create_disks(context, instance)
            if configdrive.required_by(instance, image_meta):
                disks.append(
                    self._create_config_drive(
                        instance, image_meta, injected_files, admin_password, disks
                    )
                )
            domain = self._define_domain(
                context, instance, image_meta, disks, network_info
            )
            if power_on:
                self._start_when_plugged(domain, vifs_plugged)
            elif vifs_plugged is not None:
                vifs_plugged()
        except BaseException:
            # A failed spawn leaves no domain, no tap and no file behind.
            self.destroy(context, instance, network_info)
            raise
        LOG.info("Spawned %s (%s) on %s", instance.name, instance.uuid, self._host.uri)

    @staticmethod
    def _start_when_plugged(domain, vifs_plugged) -> None:
        """Start the guest; with ``vifs_plugged``, paused until it returns
        (Neutron reported the ports plugged), so that the guest's first
        DHCP request finds its port wired."""
        if vifs_plugged is None:
            domain.create()
            return
        domain.createWithFlags(libvirt.VIR_DOMAIN_START_PAUSED)
        vifs_plugged()
        domain.resume()

    def plug_vifs(self, instance, network_info) -> None:
        for vif in network_info or ():
            vifs.plug(instance.uuid, vif)

    def unplug_vifs(self, instance, network_info) -> None:
        for vif in network_info or ():
            vifs.unplug(vif)

    @staticmethod
    def _device_flags(domain) -> int:
        """A running guest changes now and in its definition; a stopped
        one in its definition only."""
        if domain.isActive():
            return libvirt.VIR_DOMAIN_AFFECT_LIVE | libvirt.VIR_DOMAIN_AFFECT_CONFIG
        return libvirt.VIR_DOMAIN_AFFECT_CONFIG

    def attach_interface(self, context, instance, image_meta, vif) -> None:
        """Plug ``vif``'s tap, then hot-plug a NIC on it into the guest."""
        domain = self._host.get_domain(instance)
        vifs.plug(instance.uuid, vif)
        nic = config.guest_interface(vif, config.vif_model(image_meta))
        try:
            domain.attachDeviceFlags(
                config.interface_xml(nic), self._device_flags(domain)
            )
        except libvirt.libvirtError as exc:
            LOG.error("Attaching port %s to %s failed: %s", vif["id"],
                      instance.uuid, exc)  # fmt: skip
            vifs.unplug(vif)
            raise exception.InterfaceAttachFailed(instance_uuid=instance.uuid) from exc
        LOG.info("Attached port %s to %s as %s", vif["id"], instance.uuid, nic.tap)

    def detach_interface(self, context, instance, vif) -> None:
        """Ask the guest to release ``vif``'s NIC (it must acknowledge the
        hot-unplug, so the request is repeated as ``[libvirt]
        device_detach_attempts`` and ``device_detach_timeout`` say), then
        unplug its tap."""
        domain = self._host.get_domain(instance)
        mac = vif["address"]
        nic_xml = config.interface_xml(config.guest_interface(vif, "virtio"))
        for _attempt in range(CONF.libvirt.device_detach_attempts):
            if not self._has_nic(domain, mac):
                break
            try:
                domain.detachDeviceFlags(nic_xml, self._device_flags(domain))
            except libvirt.libvirtError as exc:
                if not self._has_nic(domain, mac):
                    break
                LOG.warning("Detach of port %s from %s refused: %s", vif["id"],
                            instance.uuid, exc)  # fmt: skip
            if self._wait_nic_gone(domain, mac, CONF.libvirt.device_detach_timeout):
                break
        else:
            if self._has_nic(domain, mac):
                raise exception.InterfaceDetachFailed(instance_uuid=instance.uuid)
        vifs.unplug(vif)
        LOG.info("Detached port %s from %s", vif["id"], instance.uuid)

    @staticmethod
    def _has_nic(domain, mac: str) -> bool:
        for flags in (0, libvirt.VIR_DOMAIN_XML_INACTIVE):
            devices = ET.fromstring(domain.XMLDesc(flags)).find("devices")
            if devices is not None and any(
                element.get("address", "").lower() == mac.lower()
                for element in devices.findall("interface/mac")
            ):
                return True
        return False

    def _wait_nic_gone(self, domain, mac: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self._has_nic(domain, mac):
            if time.monotonic() >= deadline:
                return False
            time.sleep(SHUTDOWN_POLL_SECONDS)
        return True

    @staticmethod
    def _taps(domain) -> list[str]:
        """The taps the domain's NICs open."""
        devices = ET.fromstring(domain.XMLDesc(0)).find("devices")
        if devices is None:
            return []
        return [
            target.get("dev")
            for target in devices.findall("interface[@type='ethernet']/target")
            if target.get("dev")
        ]

    def destroy(
        self,
        context,
        instance,
        network_info=None,
        block_device_info=None,
        destroy_disks: bool = True,
    ) -> None:
        try:
            domain = self._host.get_domain(instance)
        except exception.InstanceNotFound:
            domain = None
        taps = {vifs.tap_name(vif) for vif in network_info or ()}
        if domain is not None:
            taps.update(self._taps(domain))
            if domain.isActive():
                try:
                    domain.destroy()
                except libvirt.libvirtError as exc:
                    # It stopped by itself meanwhile.
                    if domain.isActive():
                        raise exception.HypervisorUnavailable(reason=str(exc)) from exc
            listeners = self._serial_listeners(domain)
            domain.undefineFlags(libvirt.VIR_DOMAIN_UNDEFINE_MANAGED_SAVE)
            for host, port in listeners:
                serial_ports.release_port(host, port)
        for tap in sorted(taps):
            vifs.unplug_device(tap)
        if destroy_disks:
            shutil.rmtree(self.instance_dir(instance), ignore_errors=True)

    def get_info(self, instance, use_cache: bool = True) -> driver.InstanceInfo:
        domain = self._host.get_domain(instance)
        state = _DOMAIN_STATES.get(domain.state()[0], power_state.NOSTATE)
        if state == power_state.SHUTDOWN and domain.hasManagedSaveImage(0):
            state = power_state.SUSPENDED
        return driver.InstanceInfo(state=state, internal_id=domain.name())

    def _shutdown_cleanly(self, domain, timeout: float, retry_interval: float) -> bool:
        """ACPI shutdown, repeated every ``retry_interval`` (a guest not yet
        listening loses the first), until off or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        next_request = 0.0
        while time.monotonic() < deadline:
            if not domain.isActive():
                return True
            if time.monotonic() >= next_request:
                try:
                    domain.shutdown()
                except libvirt.libvirtError:
                    if not domain.isActive():
                        return True
                    raise
                next_request = time.monotonic() + max(retry_interval, 1)
            time.sleep(SHUTDOWN_POLL_SECONDS)
        return not domain.isActive()

    def power_off(self, instance, timeout: int = 0, retry_interval: int = 0) -> None:
        domain = self._host.get_domain(instance)
        if timeout and self._shutdown_cleanly(domain, timeout, retry_interval):
            return
        if domain.isActive():
            if timeout:
                LOG.warning(
                    "%s did not shut down within %d s; powering it off",
                    instance.uuid,
                    timeout,
                )
            domain.destroy()

    def power_on(self, context, instance, network_info, block_device_info=None):
        domain = self._host.get_domain(instance)
        if not domain.isActive():
            # The taps outlive the guest, but not a host's reboot.
            self.plug_vifs(instance, network_info)
            domain.create()

    def reboot(
        self, context, instance, network_info, reboot_type, block_device_info=None
    ) -> None:
        domain = self._host.get_domain(instance)
        if reboot_type == "SOFT" and domain.isActive():
            timeout = CONF.libvirt.wait_soft_reboot_seconds
            if self._shutdown_cleanly(domain, timeout, timeout):
                domain.create()
                return
            LOG.warning(
                "%s did not shut down within %d s; rebooting it hard",
                instance.uuid,
                timeout,
            )
        if domain.isActive():
            domain.destroy()
        domain.create()

    def pause(self, instance) -> None:
        self._host.get_domain(instance).suspend()

    def unpause(self, instance) -> None:
        self._host.get_domain(instance).resume()

    def suspend(self, context, instance) -> None:
        # Managed save: the guest's memory goes to disk, QEMU exits.
        self._host.get_domain(instance).managedSave(0)

    def resume(self, context, instance, network_info, block_device_info=None):
        # Starting a domain with a managed save image restores it.
        domain = self._host.get_domain(instance)
        if not domain.isActive():
            domain.create()

    # -- rescue -------------------------------------------------------------

    def _unrescue_xml_path(self, instance) -> str:
        return os.path.join(self.instance_dir(instance), "unrescue.xml")

    def rescue(
        self, context, instance, network_info, image_meta, rescue_password
    ) -> None:
        """Keep the domain's XML in ``unrescue.xml``, then run the guest from
        ``disk.rescue`` (an overlay over the rescue image) as ``vda`` with
        its own root disk as ``vdb``."""
        domain = self._host.get_domain(instance)
        was_active = bool(domain.isActive())
        with open(self._unrescue_xml_path(instance), "w") as saved:
            saved.write(domain.XMLDesc(libvirt.VIR_DOMAIN_XML_INACTIVE))
        try:
            if was_active:
                domain.destroy()
            self._define_rescue_guest(
                context, instance, image_meta, rescue_password
            ).create()
        except BaseException:
            # The guest goes back to what it was.
            self._restore_unrescued_domain(instance)
            if was_active:
                self._host.get_domain(instance).create()
            raise
        LOG.info("Rescued %s from image %s", instance.uuid, image_meta.id)

    def _define_rescue_guest(self, context, instance, image_meta, rescue_password):
        directory = self.instance_dir(instance)
        base = self.image_cache.fetch(context, self._images(), image_meta.id)
        rescue_disk = os.path.join(directory, "disk.rescue")
        imagebackend.create_overlay(
            base, rescue_disk, instance.flavor.root_gb * imagebackend.GiB
        )
        disks = [config.GuestDisk(rescue_disk, "vda")]
        root = os.path.join(directory, "disk")
        if os.path.exists(root):
            disks.append(config.GuestDisk(root, "vdb"))
        if configdrive.required_by(instance, image_meta):
            # The rescue password reaches the rescue guest on a drive of
            # its own, as upstream does.
            disks.append(
                self._create_config_drive(
                    instance,
                    image_meta,
                    [],
                    rescue_password,
                    disks,
                    RESCUE_CONFIG_DRIVE,
                )
            )
        return self._define_domain(context, instance, image_meta, disks)

    def unrescue(self, context, instance) -> None:
        """Stop the rescue guest and start the domain ``unrescue.xml`` kept."""
        domain = self._host.get_domain(instance)
        if domain.isActive():
            domain.destroy()
        self._restore_unrescued_domain(instance)
        self._host.get_domain(instance).create()
        LOG.info("Unrescued %s", instance.uuid)

    def _restore_unrescued_domain(self, instance) -> None:
        path = self._unrescue_xml_path(instance)
        with open(path) as saved:
            xml = saved.read()
        self._host.get_connection().defineXML(xml)
        os.remove(path)
        for name in ("disk.rescue", RESCUE_CONFIG_DRIVE):
            with contextlib.suppress(FileNotFoundError):
                os.remove(os.path.join(self.instance_dir(instance), name))

    def get_console_output(self, context, instance) -> str:
        self._host.get_domain(instance)
        path = self.console_log_path(instance)
        try:
            with open(path, "rb") as log:
                log.seek(0, os.SEEK_END)
                log.seek(max(0, log.tell() - MAX_CONSOLE_BYTES))
                return log.read().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def snapshot(self, context, instance, image_id: str, update_task_state) -> None:
        """A standalone copy of the root disk (its backing image merged
        in), taken while a running guest is paused so the copy is
        consistent, then uploaded."""
        domain = self._host.get_domain(instance)
        root = os.path.join(self.instance_dir(instance), "disk")
        disk_format = CONF.libvirt.snapshot_image_format or "qcow2"
        os.makedirs(CONF.libvirt.snapshots_directory, exist_ok=True)
        staged = os.path.join(
            CONF.libvirt.snapshots_directory, f"{instance.uuid}-{image_id}"
        )
        try:
            paused = domain.isActive() and (
                domain.state()[0] == libvirt.VIR_DOMAIN_RUNNING
            )
            if paused:
                domain.suspend()
            try:
                # -U: QEMU holds the disk's lock while the guest exists.
                imagebackend.qemu_img(
                    "convert", "-U", "-q", "-O", disk_format, root, staged
                )
            finally:
                if paused:
                    domain.resume()
            update_task_state(task_state=task_states.IMAGE_PENDING_UPLOAD)
            update_task_state(
                task_state=task_states.IMAGE_UPLOADING,
                expected_state=task_states.IMAGE_PENDING_UPLOAD,
            )
            with open(staged, "rb") as data:
                driver.upload_snapshot(
                    context, self._images(), image_id, disk_format, data
                )
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(staged)
        LOG.info("Snapshot of %s uploaded as image %s", instance.uuid, image_id)

    def get_vnc_console(self, context, instance) -> dict[str, Any]:
        """``{"host", "port"}`` the console proxy connects to for the
        running guest's VNC server.

        The guest listens on ``[vnc] server_listen`` (often a wildcard);
        the proxy reaches this host at ``[vnc] server_proxyclient_address``.
        """
        graphics = self._graphics(instance, "vnc", "novnc")
        return {
            "host": CONF.vnc.server_proxyclient_address,
            "port": int(graphics.get("port")),
        }

    def get_spice_console(self, context, instance) -> dict[str, Any]:
        """``{"host", "port", "tls_port"}`` of the running guest's SPICE
        server, as the proxy reaches it (``[spice]
        server_proxyclient_address``); ``tls_port`` is None without TLS."""
        graphics = self._graphics(instance, "spice", "spice-html5")
        tls_port = int(graphics.get("tlsPort", -1))
        return {
            "host": CONF.spice.server_proxyclient_address,
            "port": int(graphics.get("port")),
            "tls_port": tls_port if tls_port > 0 else None,
        }

    def _graphics(self, instance, kind: str, console_type: str) -> ET.Element:
        """The running guest's ``kind`` graphics device, once QEMU gave it
        a port.

        :raises ConsoleTypeUnavailable: it has none (not running, or not
            configured so).
        """
        domain = self._host.get_domain(instance)
        graphics = ET.fromstring(domain.XMLDesc(0)).find(
            f"devices/graphics[@type='{kind}']"
        )
        if graphics is None or int(graphics.get("port", -1)) < 0:
            raise exception.ConsoleTypeUnavailable(console_type=console_type)
        return graphics

    def get_serial_console(self, context, instance) -> dict[str, Any]:
        """``{"host", "port"}`` of the guest's serial port listener.

        :raises ConsoleTypeUnavailable: its serial port is no TCP listener
            (defined before ``[serial_console] enabled``).
        """
        listeners = self._serial_listeners(self._host.get_domain(instance))
        if not listeners:
            raise exception.ConsoleTypeUnavailable(console_type="serial")
        host, port = listeners[0]
        return {"host": host, "port": port}

    # -- diagnostics ---------------------------------------------------------

    @staticmethod
    def _devices(domain) -> tuple[list[str], list[tuple[str, str]]]:
        """The guest's disk targets (``vda``) and its interfaces as
        (target device, MAC address)."""
        devices = ET.fromstring(domain.XMLDesc(0)).find("devices")
        if devices is None:
            return [], []
        disks = [
            target.get("dev")
            for target in devices.findall("disk/target")
            if target.get("dev")
        ]
        nics = []
        for interface in devices.findall("interface"):
            target = interface.find("target")
            mac = interface.find("mac")
            if target is not None and target.get("dev"):
                nics.append(
                    (target.get("dev"), mac.get("address") if mac is not None else "")
                )
        return disks, nics

    @staticmethod
    def _stats(read: Callable[[], Any]) -> Any:
        """A statistic the hypervisor may not offer: None when it does not."""
        try:
            return read()
        except libvirt.libvirtError:
            return None

    def _vcpu_times(self, domain) -> list[tuple[int, int]]:
        vcpus = self._stats(domain.vcpus)
        if not vcpus:
            return []
        return [(number, cpu_time) for number, _, cpu_time, _ in vcpus[0]]

    def get_diagnostics(self, instance) -> dict[str, Any]:
        domain = self._host.get_domain(instance)
        output: dict[str, Any] = {}
        for number, cpu_time in self._vcpu_times(domain):
            output[f"cpu{number}_time"] = cpu_time
        disks, nics = self._devices(domain)
        for disk in disks:
            stats = self._stats(lambda disk=disk: domain.blockStats(disk))
            if stats:
                for key, value in zip(
                    ("read_req", "read", "write_req", "write", "errors"),
                    stats,
                    strict=True,
                ):
                    output[f"{disk}_{key}"] = value
        for nic, _ in nics:
            stats = self._stats(lambda nic=nic: domain.interfaceStats(nic))
            if stats:
                for key, value in zip(_NIC_STATS, stats, strict=True):
                    output[f"{nic}_{key}"] = value
        output["memory"] = domain.maxMemory()
        for key, value in (self._stats(domain.memoryStats) or {}).items():
            output[f"memory-{key}"] = value
        return output

    def get_instance_diagnostics(self, instance) -> dict[str, Any]:
        domain = self._host.get_domain(instance)
        state = _DOMAIN_STATES.get(domain.state()[0], power_state.NOSTATE)
        disks, nics = self._devices(domain)
        memory = self._stats(domain.memoryStats) or {}
        disk_details = []
        for disk in disks:
            stats = self._stats(lambda disk=disk: domain.blockStats(disk))
            read_req, read, write_req, write, errors = stats or (0, 0, 0, 0, 0)
            disk_details.append(
                {
                    "read_bytes": read,
                    "read_requests": read_req,
                    "write_bytes": write,
                    "write_requests": write_req,
                    "errors_count": errors,
                }
            )
        nic_details = []
        for nic, mac in nics:
            stats = self._stats(lambda nic=nic: domain.interfaceStats(nic))
            values = dict(zip(_NIC_STATS, stats or (0,) * len(_NIC_STATS), strict=True))
            nic_details.append(
                {
                    "mac_address": mac,
                    "rx_octets": values["rx"],
                    "rx_errors": values["rx_errors"],
                    "rx_drop": values["rx_drop"],
                    "rx_packets": values["rx_packets"],
                    "rx_rate": None,
                    "tx_octets": values["tx"],
                    "tx_errors": values["tx_errors"],
                    "tx_drop": values["tx_drop"],
                    "tx_packets": values["tx_packets"],
                    "tx_rate": None,
                }
            )
        cpus = self._vcpu_times(domain)
        return {
            "state": power_state.STATE_MAP.get(state, "pending"),
            "driver": "libvirt",
            "hypervisor": CONF.libvirt.virt_type,
            "hypervisor_os": "linux",
            "uptime": None,
            "config_drive": False,
            "num_cpus": len(cpus),
            "num_nics": len(nic_details),
            "num_disks": len(disk_details),
            # libvirt counts KiB; the API shows MiB.
            "memory_details": {
                "maximum": domain.maxMemory() // 1024,
                "used": memory["actual"] // 1024 if "actual" in memory else 0,
            },
            "cpu_details": [
                {"id": number, "time": cpu_time, "utilisation": None}
                for number, cpu_time in cpus
            ],
            "nic_details": nic_details,
            "disk_details": disk_details,
        }

    # -- guest agent, NMI, host ----------------------------------------------

    def set_admin_password(self, instance, new_pass: str) -> None:
        """Through the QEMU guest agent, which the image must declare
        (``hw_qemu_guest_agent``)."""
        if CONF.libvirt.virt_type not in ("kvm", "qemu"):
            raise exception.SetAdminPasswdNotSupported()
        sysmeta = instance.system_metadata or {}
        if not strutils.bool_from_string(sysmeta.get("image_hw_qemu_guest_agent")):
            raise exception.QemuGuestAgentNotEnabled()
        user = sysmeta.get("image_os_admin_user") or (
            "Administrator" if sysmeta.get("image_os_type") == "windows" else "root"
        )
        domain = self._host.get_domain(instance)
        try:
            domain.setUserPassword(user, new_pass, 0)
        except libvirt.libvirtError as exc:
            # libvirt's message names the user, never the password.
            raise exception.InstancePasswordSetFailed(
                instance=instance.uuid, reason=exc.get_error_message()
            ) from None

    def trigger_crash_dump(self, instance) -> None:
        domain = self._host.get_domain(instance)
        try:
            domain.injectNMI(0)
        except libvirt.libvirtError as exc:
            code = exc.get_error_code()
            if code == libvirt.VIR_ERR_NO_SUPPORT:
                raise exception.TriggerCrashDumpNotSupported() from exc
            if code == libvirt.VIR_ERR_OPERATION_INVALID:
                raise exception.InstanceNotRunning(instance_id=instance.uuid) from exc
            raise

    def get_host_uptime(self) -> str:
        result = subprocess.run(
            ["uptime"],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "LANG": "C"},
            timeout=10,
        )
        return result.stdout.rstrip("\n")

    def manage_image_cache(self, context, all_instances) -> None:
        self.image_cache_manager.update(all_instances)
