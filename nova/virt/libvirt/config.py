"""The one builder of libvirt domain XML for nova's guests.

:func:`guest_config` decides what a guest gets (from the instance, its
flavor, its image and the ``[libvirt]``, ``[vnc]``, ``[spice]`` and
``[serial_console]`` options);
:func:`domain_xml` writes it out. Every guest the driver defines goes
through both, so what a domain looks like is decided in this module only.
"""

from __future__ import annotations

import dataclasses
import datetime
import xml.etree.ElementTree as ET

import nova.conf
from nova.virt import configdrive
from nova.virt.libvirt import vif as vifs

CONF = nova.conf.CONF

NOVA_NS = "http://openstack.org/xmlns/libvirt/nova/1.1"
# Direct kernel boot without an os_command_line image property: the root
# disk is the first virtio disk and the serial port carries the console
# that get_console_output reads.
DEFAULT_KERNEL_CMDLINE = "root=/dev/vda console=tty0 console=ttyS0"
# QEMU reserves 1 GiB of translation cache per TCG guest by default; 32 MiB
# keeps a small guest's RSS ~20 MiB lower at no measurable cost.
TCG_TB_CACHE_MIB = 32


@dataclasses.dataclass(frozen=True)
class GuestDisk:
    """A file-backed disk: ``vda`` root, ``vdb`` ephemeral, ``vdc`` swap,
    or the config drive (a read-only ``cdrom``, or disk for vfat)."""

    path: str
    target_dev: str
    format: str = "qcow2"
    bus: str = "virtio"
    device: str = "disk"
    read_only: bool = False


@dataclasses.dataclass(frozen=True)
class GuestInterface:
    """A NIC on a tap plugged beforehand (:mod:`nova.virt.libvirt.vif`):
    libvirt opens the tap and leaves it be (``managed='no'``)."""

    mac: str
    tap: str
    model: str = "virtio"
    mtu: int | None = None


@dataclasses.dataclass(frozen=True)
class GuestConfig:
    """Everything the domain XML says about one guest."""

    virt_type: str
    name: str
    uuid: str
    memory_mib: int
    vcpus: int
    disks: tuple[GuestDisk, ...]
    console_log: str
    interfaces: tuple[GuestInterface, ...] = ()
    cpu_mode: str | None = None
    cpu_model: str | None = None
    kernel: str | None = None
    ramdisk: str | None = None
    kernel_cmdline: str | None = None
    machine_type: str | None = None
    vnc_listen: str | None = None
    # SPICE graphics listening there, with the guest agent's channel or not.
    spice_listen: str | None = None
    spice_agent: bool = False
    # Every SPICE channel over TLS only ([spice] require_secure).
    spice_secure: bool = False
    # The serial port as a TCP listener (address, port) the serial console
    # proxy connects to; its output still goes to ``console_log`` too.
    serial_tcp: tuple[str, int] | None = None
    # The <nova:instance> metadata: who owns the guest and what flavor.
    metadata: dict = dataclasses.field(default_factory=dict)


def cdrom_bus(machine_type: str | None) -> str:
    """The bus a cdrom can sit on: q35 has no IDE, so SATA there; IDE on
    i440fx (``pc``, libvirt's x86_64 default)."""
    return "sata" if machine_type and "q35" in machine_type else "ide"


def config_drive_disk(
    path: str, machine_type: str | None, others: tuple[GuestDisk, ...] = ()
) -> GuestDisk:
    """The config drive as the guest sees it, as upstream attaches it: an
    iso9660 drive is a read-only cdrom; a vfat one a read-only virtio disk
    named after the guest's ``others`` (``vdb`` beside a lone root disk)."""
    if CONF.config_drive_format == configdrive.VFAT:
        taken = {disk.target_dev for disk in others}
        name = next(
            f"vd{letter}"
            for letter in "bcdefghijklmnopqrstuvwxyz"
            if f"vd{letter}" not in taken
        )
        return GuestDisk(path, name, format="raw", read_only=True)
    bus = cdrom_bus(machine_type)
    return GuestDisk(
        path,
        "sda" if bus == "sata" else "hdd",
        format="raw",
        bus=bus,
        device="cdrom",
        read_only=True,
    )


def machine_type(image_meta) -> str | None:
    """The image's ``hw_machine_type``, else ``[libvirt] hw_machine_type``'s
    entry for x86_64."""
    props = image_meta.properties if "properties" in image_meta else None
    if props is not None and props.get("hw_machine_type"):
        return props.get("hw_machine_type")
    for entry in CONF.libvirt.hw_machine_type or []:
        arch, _, value = entry.partition("=")
        if arch.strip() == "x86_64" and value.strip():
            return value.strip()
    return None


def vif_model(image_meta) -> str:
    """The NIC model the image asks for (``hw_vif_model``), else virtio."""
    props = image_meta.properties if "properties" in image_meta else None
    return (props.get("hw_vif_model") if props is not None else None) or "virtio"


def guest_interface(vif, model: str) -> GuestInterface:
    """The NIC of ``vif`` (a VIF of the network model) on its tap."""
    return GuestInterface(
        mac=vif["address"], tap=vifs.tap_name(vif), model=model, mtu=vifs.mtu(vif)
    )


def _cpu(virt_type: str) -> tuple[str | None, str | None]:
    """(mode, model) from ``[libvirt] cpu_mode``/``cpu_models``: upstream's
    defaults are host-model under KVM and none under emulation."""
    mode = CONF.libvirt.cpu_mode
    if mode is None:
        mode = "host-model" if virt_type == "kvm" else "none"
    if mode == "none":
        return None, None
    model = None
    if mode == "custom":
        model = (CONF.libvirt.cpu_models or [None])[0]
    return mode, model


def _metadata(instance, image_ref: str | None) -> dict:
    flavor = instance.flavor
    return {
        "name": instance.display_name or "",
        "creation_time": datetime.datetime.now(datetime.UTC).strftime(
            "%Y-%m-%d %H:%M:%S"
        ),
        "flavor": {
            "name": flavor.name,
            "memory": flavor.memory_mb,
            "disk": flavor.root_gb,
            "swap": flavor.swap,
            "ephemeral": flavor.ephemeral_gb,
            "vcpus": flavor.vcpus,
        },
        "user_id": instance.user_id,
        "project_id": instance.project_id,
        "image_ref": image_ref,
    }


def guest_config(
    instance,
    image_meta,
    disks: list[GuestDisk],
    console_log: str,
    kernel: str | None = None,
    ramdisk: str | None = None,
    serial_port: int | None = None,
    network_info=None,
) -> GuestConfig:
    """What the guest of ``instance`` is, on this host's configuration;
    its serial port listens on ``serial_port`` when given (``[serial_console]
    enabled``); it has a NIC per VIF of ``network_info``."""
    virt_type = CONF.libvirt.virt_type
    model = vif_model(image_meta)
    cpu_mode, cpu_model = _cpu(virt_type)
    cmdline = None
    if kernel:
        sysmeta = instance.system_metadata if "system_metadata" in instance else {}
        cmdline = (sysmeta or {}).get("image_os_command_line") or DEFAULT_KERNEL_CMDLINE
    return GuestConfig(
        virt_type=virt_type,
        name=instance.name,
        uuid=instance.uuid,
        memory_mib=instance.flavor.memory_mb,
        vcpus=instance.flavor.vcpus,
        disks=tuple(disks),
        console_log=console_log,
        interfaces=tuple(guest_interface(vif, model) for vif in network_info or ()),
        cpu_mode=cpu_mode,
        cpu_model=cpu_model,
        kernel=kernel,
        ramdisk=ramdisk,
        kernel_cmdline=cmdline,
        machine_type=machine_type(image_meta),
        vnc_listen=CONF.vnc.server_listen if CONF.vnc.enabled else None,
        spice_listen=CONF.spice.server_listen if CONF.spice.enabled else None,
        spice_agent=CONF.spice.enabled and CONF.spice.agent_enabled,
        spice_secure=CONF.spice.enabled and CONF.spice.require_secure,
        serial_tcp=(
            (CONF.serial_console.proxyclient_address, serial_port)
            if serial_port
            else None
        ),
        metadata=_metadata(instance, instance.image_ref or None),
    )


def _sub(parent: ET.Element, tag: str, text=None, **attrs) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: str(v) for k, v in attrs.items()})
    if text is not None:
        element.text = str(text)
    return element


def _nova_metadata(parent: ET.Element, metadata: dict) -> None:
    def n(tag: str) -> str:
        return f"{{{NOVA_NS}}}{tag}"

    instance = _sub(_sub(parent, "metadata"), n("instance"))
    _sub(instance, n("name"), metadata.get("name", ""))
    _sub(instance, n("creationTime"), metadata.get("creation_time", ""))
    flavor = metadata.get("flavor") or {}
    flavor_element = _sub(instance, n("flavor"), name=flavor.get("name", ""))
    for key in ("memory", "disk", "swap", "ephemeral", "vcpus"):
        _sub(flavor_element, n(key), flavor.get(key, 0))
    owner = _sub(instance, n("owner"))
    _sub(owner, n("user"), uuid=metadata.get("user_id", ""))
    _sub(owner, n("project"), uuid=metadata.get("project_id", ""))
    if metadata.get("image_ref"):
        _sub(instance, n("root"), type="image", uuid=metadata["image_ref"])


def _interface(parent: ET.Element, nic: GuestInterface) -> ET.Element:
    element = _sub(parent, "interface", type="ethernet")
    _sub(element, "mac", address=nic.mac)
    _sub(element, "target", dev=nic.tap, managed="no")
    _sub(element, "model", type=nic.model)
    if nic.mtu:
        _sub(element, "mtu", size=nic.mtu)
    return element


def interface_xml(nic: GuestInterface) -> str:
    """The ``<interface>`` of ``nic`` alone, as a hot attach or detach
    takes it."""
    return ET.tostring(_interface(ET.Element("devices"), nic), encoding="unicode")


def domain_xml(config: GuestConfig) -> str:
    """The libvirt domain XML of ``config``."""
    ET.register_namespace("nova", NOVA_NS)
    domain = ET.Element("domain", type=config.virt_type)
    _sub(domain, "name", config.name)
    _sub(domain, "uuid", config.uuid)
    _nova_metadata(domain, config.metadata)
    _sub(domain, "memory", config.memory_mib, unit="MiB")
    _sub(domain, "vcpu", config.vcpus)

    os_element = _sub(domain, "os")
    os_type = {"arch": "x86_64"}
    if config.machine_type:
        os_type["machine"] = config.machine_type
    _sub(os_element, "type", "hvm", **os_type)
    if config.kernel:
        _sub(os_element, "kernel", config.kernel)
        if config.ramdisk:
            _sub(os_element, "initrd", config.ramdisk)
        _sub(os_element, "cmdline", config.kernel_cmdline or DEFAULT_KERNEL_CMDLINE)
    else:
        _sub(os_element, "boot", dev="hd")

    features = _sub(domain, "features")
    _sub(features, "acpi")
    _sub(features, "apic")
    if config.virt_type == "qemu":
        tcg = _sub(features, "tcg")
        _sub(tcg, "tb-cache", TCG_TB_CACHE_MIB, unit="MiB")

    if config.cpu_mode:
        cpu = _sub(domain, "cpu", mode=config.cpu_mode)
        if config.cpu_mode == "custom":
            cpu.set("match", "exact")
            if config.cpu_model:
                _sub(cpu, "model", config.cpu_model, fallback="allow")

    _sub(domain, "on_poweroff", "destroy")
    _sub(domain, "on_reboot", "restart")
    _sub(domain, "on_crash", "destroy")

    devices = _sub(domain, "devices")
    for disk in config.disks:
        element = _sub(devices, "disk", type="file", device=disk.device)
        _sub(element, "driver", name="qemu", type=disk.format)
        _sub(element, "source", file=disk.path)
        _sub(element, "target", dev=disk.target_dev, bus=disk.bus)
        if disk.read_only:
            _sub(element, "readonly")
    for nic in config.interfaces:
        _interface(devices, nic)
    # append: a reboot adds to the log instead of wiping what came before.
    if config.serial_tcp:
        host, port = config.serial_tcp
        serial = _sub(devices, "serial", type="tcp")
        _sub(serial, "source", mode="bind", host=host, service=port)
        _sub(serial, "protocol", type="raw")
        _sub(serial, "log", file=config.console_log, append="on")
    else:
        serial = _sub(devices, "serial", type="file")
        _sub(serial, "source", path=config.console_log, append="on")
    _sub(serial, "target", port=0)
    if config.vnc_listen:
        _sub(devices, "graphics", type="vnc", autoport="yes", listen=config.vnc_listen)
    if config.spice_listen:
        spice = _sub(
            devices,
            "graphics",
            type="spice",
            autoport="yes",
            listen=config.spice_listen,
        )
        if config.spice_secure:
            spice.set("defaultMode", "secure")
        if config.spice_agent:
            channel = _sub(devices, "channel", type="spicevmc")
            _sub(channel, "target", type="virtio", name="com.redhat.spice.0")
    if config.vnc_listen or config.spice_listen:
        _sub(_sub(devices, "video"), "model", type="vga")
    _sub(devices, "memballoon", model="none")
    return ET.tostring(domain, encoding="unicode")
