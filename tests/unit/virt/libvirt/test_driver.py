"""LibvirtDriver against ``test:///default``: every operation is a real
libvirt call; the disks are real qcow2 files made by qemu-img."""

import json
import os
import shutil
import time
import xml.etree.ElementTree as ET

import pytest

import nova.conf
from nova import exception, objects
from nova.states import power_state
from nova.virt import configdrive
from nova.virt import driver as virt_driver
from nova.virt.libvirt import config, imagebackend
from tests.fixtures.databases import skip_or_fail

CONF = nova.conf.CONF


def _spawn(virt, instance, power_on=True):
    virt.spawn(
        None, instance, objects.ImageMeta.from_dict({}), [], None, {}, power_on=power_on
    )


def _state(virt, instance):
    return virt.get_info(instance).state


def test_spawn_defines_domain_with_overlay_disks(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    assert instance.name in libvirt_driver.list_instances()
    assert instance.uuid in libvirt_driver.list_instance_uuids()
    assert _state(libvirt_driver, instance) == power_state.RUNNING

    directory = libvirt_driver.instance_dir(instance)
    root = imagebackend.image_info(os.path.join(directory, "disk"))
    assert root["format"] == "qcow2"
    assert root["virtual-size"] == 1024**3  # grown to the flavor's root_gb
    assert root["backing-filename"] == libvirt_driver.image_cache.base_path(
        "root-image"
    )
    assert (
        imagebackend.image_info(os.path.join(directory, "disk.local"))["virtual-size"]
        == 1024**3
    )
    assert (
        imagebackend.image_info(os.path.join(directory, "disk.swap"))["virtual-size"]
        == 16 * 1024**2
    )

    domain = ET.fromstring(libvirt_driver._host.get_domain(instance).XMLDesc(0))
    assert domain.get("type") == "qemu"
    assert domain.findtext("uuid") == instance.uuid
    assert [d.get("dev") for d in domain.findall("devices/disk/target")] == [
        "vda",
        "vdb",
        "vdc",
    ]
    assert domain.find("devices/serial/source").get("path") == (
        libvirt_driver.console_log_path(instance)
    )
    assert domain.find("devices/graphics").get("listen") == CONF.vnc.server_listen
    assert domain.find("os/boot").get("dev") == "hd"
    ns = {"nova": "http://openstack.org/xmlns/libvirt/nova/1.1"}
    assert domain.find("metadata/nova:instance/nova:flavor", ns).get("name") == "tiny"
    assert (
        domain.find("metadata/nova:instance/nova:owner/nova:project", ns).get("uuid")
        == "p1"
    )
    assert domain.find("features/tcg/tb-cache").text == str(32 * 1024)  # KiB


def test_direct_kernel_boot_and_shared_cache(libvirt_driver, make_instance, images):
    first = make_instance(kernel_id="kernel-image", ramdisk_id="ramdisk-image")
    second = make_instance(id=2, kernel_id="kernel-image", ramdisk_id="ramdisk-image")
    _spawn(libvirt_driver, first)
    _spawn(libvirt_driver, second)
    # Each image downloaded once, shared by both guests.
    assert sorted(images.downloads) == ["kernel-image", "ramdisk-image", "root-image"]
    domain = ET.fromstring(libvirt_driver._host.get_domain(second).XMLDesc(0))
    cache = libvirt_driver.image_cache
    assert domain.findtext("os/kernel") == cache.base_path("kernel-image")
    assert domain.findtext("os/initrd") == cache.base_path("ramdisk-image")
    assert "console=ttyS0" in domain.findtext("os/cmdline")


def test_cpu_mode_custom(libvirt_driver, make_instance):
    CONF.set_override("cpu_mode", "custom", group="libvirt")
    CONF.set_override("cpu_models", ["qemu64"], group="libvirt")
    try:
        instance = make_instance()
        _spawn(libvirt_driver, instance)
    finally:
        CONF.clear_override("cpu_mode", group="libvirt")
        CONF.clear_override("cpu_models", group="libvirt")
    cpu = ET.fromstring(libvirt_driver._host.get_domain(instance).XMLDesc(0)).find(
        "cpu"
    )
    assert cpu.get("mode") == "custom"
    assert cpu.findtext("model") == "qemu64"


def test_power_operations(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    virt = libvirt_driver
    virt.pause(instance)
    assert _state(virt, instance) == power_state.PAUSED
    virt.unpause(instance)
    assert _state(virt, instance) == power_state.RUNNING
    virt.suspend(None, instance)
    assert _state(virt, instance) == power_state.SUSPENDED
    virt.resume(None, instance, [])
    assert _state(virt, instance) == power_state.RUNNING
    virt.reboot(None, instance, [], "HARD")
    assert _state(virt, instance) == power_state.RUNNING
    # The test hypervisor's guests obey an ACPI shutdown at once.
    virt.reboot(None, instance, [], "SOFT")
    assert _state(virt, instance) == power_state.RUNNING
    virt.power_off(instance, timeout=5, retry_interval=1)
    assert _state(virt, instance) == power_state.SHUTDOWN
    virt.power_on(None, instance, [])
    assert _state(virt, instance) == power_state.RUNNING
    virt.power_off(instance)
    assert _state(virt, instance) == power_state.SHUTDOWN


def test_spawn_without_power_on(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance, power_on=False)
    assert _state(libvirt_driver, instance) == power_state.SHUTDOWN


def test_destroy_removes_domain_and_files(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    libvirt_driver.suspend(None, instance)
    libvirt_driver.destroy(None, instance)
    assert instance.uuid not in libvirt_driver.list_instance_uuids()
    assert not os.path.exists(libvirt_driver.instance_dir(instance))
    with pytest.raises(exception.InstanceNotFound):
        libvirt_driver.get_info(instance)
    # Destroying what is gone is no error.
    libvirt_driver.destroy(None, instance)


def test_failed_spawn_leaves_nothing(libvirt_driver, make_instance):
    instance = make_instance(image_ref="no-such-image")
    with pytest.raises(KeyError):
        _spawn(libvirt_driver, instance)
    assert instance.uuid not in libvirt_driver.list_instance_uuids()
    assert not os.path.exists(libvirt_driver.instance_dir(instance))


def test_console_output_is_a_bounded_tail(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    with open(libvirt_driver.console_log_path(instance), "w") as log:
        log.write("x" * 200 * 1024 + "\nBOOT-MARKER\n")
    output = libvirt_driver.get_console_output(None, instance)
    assert output.endswith("BOOT-MARKER\n")
    assert len(output) == 100 * 1024


def test_vnc_console_needs_a_listening_server(libvirt_driver, make_instance):
    # The test hypervisor never assigns the autoport (QEMU does: tests/e2e).
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    with pytest.raises(exception.ConsoleTypeUnavailable):
        libvirt_driver.get_vnc_console(None, instance)


def test_available_resource(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    (node,) = libvirt_driver.get_available_nodes()
    resources = libvirt_driver.get_available_resource(node)
    assert resources["hypervisor_type"] == "TEST"
    assert resources["vcpus"] == 16
    assert resources["memory_mb"] == 3072
    assert resources["vcpus_used"] >= 1
    assert resources["local_gb"] > 0
    cpu_info = json.loads(resources["cpu_info"])
    assert cpu_info["arch"] == "i686"
    assert set(cpu_info["topology"]) == {"sockets", "cores", "threads"}


def test_lifecycle_events_reach_the_listener(libvirt_driver, make_instance):
    events = []
    libvirt_driver.register_event_listener(events.append)
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    libvirt_driver.pause(instance)
    libvirt_driver.power_off(instance)
    deadline = time.monotonic() + 5
    expected = [
        virt_driver.LifecycleEvent(instance.uuid, power_state.RUNNING),
        virt_driver.LifecycleEvent(instance.uuid, power_state.PAUSED),
        virt_driver.LifecycleEvent(instance.uuid, power_state.SHUTDOWN),
    ]
    while time.monotonic() < deadline and events[-1:] != expected[-1:]:
        time.sleep(0.05)
    assert [e for e in events if e.uuid == instance.uuid] == expected


def test_reconnects_after_the_connection_closed(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    lost = libvirt_driver._host.get_connection()
    lost.close()
    assert _state(libvirt_driver, instance) == power_state.RUNNING
    assert libvirt_driver._host.get_connection() is not lost


def test_vnc_listens_on_server_listen_and_is_reached_at_the_proxyclient_address(
    libvirt_driver, make_instance
):
    CONF.set_override("server_listen", "0.0.0.0", group="vnc")
    CONF.set_override("server_proxyclient_address", "192.0.2.7", group="vnc")
    try:
        instance = make_instance()
        _spawn(libvirt_driver, instance)
        domain = libvirt_driver._host.get_domain(instance)
        xml = ET.fromstring(domain.XMLDesc(0))
        graphics = xml.find("devices/graphics")
        assert (graphics.get("type"), graphics.get("listen")) == ("vnc", "0.0.0.0")
        # The test hypervisor assigns no autoport: run the guest again with
        # the port QEMU would have picked, as a real libvirt reports it.
        graphics.set("autoport", "no")
        graphics.set("port", "5907")
        connection = libvirt_driver._host.get_connection()
        domain.destroy()
        connection.defineXML(ET.tostring(xml, "unicode"))
        libvirt_driver._host.get_domain(instance).create()
        assert libvirt_driver.get_vnc_console(None, instance) == {
            "host": "192.0.2.7",
            "port": 5907,
        }
    finally:
        CONF.clear_override("server_listen", group="vnc")
        CONF.clear_override("server_proxyclient_address", group="vnc")


def test_diagnostics_from_domain_stats(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    free_form = libvirt_driver.get_diagnostics(instance)
    assert "cpu0_time" in free_form
    assert free_form["memory"] == 96 * 1024
    # One entry per disk the domain XML names, with blockStats' five counters.
    disks = [k[: -len("_read_req")] for k in free_form if k.endswith("_read_req")]
    assert disks and all(f"{d}_errors" in free_form for d in disks)

    standard = libvirt_driver.get_instance_diagnostics(instance)
    assert (standard["state"], standard["driver"], standard["hypervisor"]) == (
        "running",
        "libvirt",
        "qemu",
    )
    assert standard["memory_details"]["maximum"] == 96
    assert standard["num_cpus"] == len(standard["cpu_details"]) == 1
    assert standard["num_disks"] == len(standard["disk_details"]) == len(disks)
    assert set(standard["disk_details"][0]) == {
        "read_bytes",
        "read_requests",
        "write_bytes",
        "write_requests",
        "errors_count",
    }
    with pytest.raises(exception.InstanceNotFound):
        libvirt_driver.get_diagnostics(make_instance(id=2))


def test_set_admin_password_needs_the_guest_agent(libvirt_driver, make_instance):
    without_agent = make_instance()
    _spawn(libvirt_driver, without_agent)
    with pytest.raises(exception.QemuGuestAgentNotEnabled):
        libvirt_driver.set_admin_password(without_agent, "pw")
    with_agent = make_instance(
        id=2, system_metadata={"image_hw_qemu_guest_agent": "yes"}
    )
    _spawn(libvirt_driver, with_agent)
    libvirt_driver.set_admin_password(with_agent, "pw")  # the test driver accepts
    CONF.set_override("virt_type", "lxc", group="libvirt")
    with pytest.raises(exception.SetAdminPasswdNotSupported):
        libvirt_driver.set_admin_password(with_agent, "pw")


def test_trigger_crash_dump_injects_an_nmi(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    libvirt_driver.trigger_crash_dump(instance)
    libvirt_driver.power_off(instance)
    with pytest.raises(exception.InstanceNotRunning):
        libvirt_driver.trigger_crash_dump(instance)


def test_host_uptime(libvirt_driver):
    assert " up " in libvirt_driver.get_host_uptime()


def _snapshot(virt, instance, image_id):
    states = []

    def update_task_state(task_state, expected_state=None):
        states.append(task_state)

    virt.snapshot(None, instance, image_id, update_task_state)
    return states


def test_snapshot_uploads_a_standalone_qcow2_of_the_root_disk(
    libvirt_driver, make_instance, images, tmp_path
):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    assert _snapshot(libvirt_driver, instance, "snap-1") == [
        "image_pending_upload",
        "image_uploading",
    ]
    assert images.metadata["snap-1"] == {
        "disk_format": "qcow2",
        "container_format": "bare",
    }
    uploaded = tmp_path / "uploaded.qcow2"
    uploaded.write_bytes(images.images["snap-1"])
    info = imagebackend.image_info(str(uploaded))
    assert info["format"] == "qcow2"
    # The base image is merged in: the snapshot boots without this host.
    assert "backing-filename" not in info
    assert info["virtual-size"] == 1024**3
    raw = tmp_path / "uploaded.raw"
    imagebackend.qemu_img("convert", "-O", "raw", str(uploaded), str(raw))
    assert raw.read_bytes()[:4] == b"ROOT"
    # The guest runs again and nothing is left in the staging directory.
    assert _state(libvirt_driver, instance) == power_state.RUNNING
    assert os.listdir(CONF.libvirt.snapshots_directory) == []


def test_snapshot_of_a_paused_guest_leaves_it_paused(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    libvirt_driver.pause(instance)
    _snapshot(libvirt_driver, instance, "snap-2")
    assert _state(libvirt_driver, instance) == power_state.PAUSED


def test_snapshot_of_a_missing_guest_is_instance_not_found(
    libvirt_driver, make_instance
):
    with pytest.raises(exception.InstanceNotFound):
        _snapshot(libvirt_driver, make_instance(), "snap-3")


def test_spawn_attaches_a_config_drive_as_a_read_only_cdrom(
    libvirt_driver, make_instance
):
    instance = make_instance(config_drive="True")
    _spawn(libvirt_driver, instance)
    path = os.path.join(libvirt_driver.instance_dir(instance), configdrive.FILE_NAME)
    assert os.path.getsize(path) > 0
    assert instance.config_drive == "True"
    domain = ET.fromstring(libvirt_driver._host.get_domain(instance).XMLDesc(0))
    [cdrom] = domain.findall("devices/disk[@device='cdrom']")
    assert cdrom.get("type") == "file"
    assert cdrom.find("source").get("file") == path
    assert cdrom.find("driver").get("type") == "raw"
    assert cdrom.find("target").get("bus") == "ide"
    assert cdrom.find("readonly") is not None


def test_spawn_attaches_a_vfat_config_drive_as_a_read_only_disk(
    libvirt_driver, make_instance
):
    if not (shutil.which("mkfs.vfat") and shutil.which("mcopy")):
        skip_or_fail("dosfstools or mtools missing (apt-get install dosfstools mtools)")
    CONF.set_override("config_drive_format", "vfat")
    try:
        instance = make_instance(config_drive="True")
        _spawn(libvirt_driver, instance)
    finally:
        CONF.clear_override("config_drive_format")
    path = os.path.join(libvirt_driver.instance_dir(instance), configdrive.FILE_NAME)
    domain = ET.fromstring(libvirt_driver._host.get_domain(instance).XMLDesc(0))
    assert not domain.findall("devices/disk[@device='cdrom']")
    [drive] = [
        disk
        for disk in domain.findall("devices/disk[@device='disk']")
        if disk.find("source").get("file") == path
    ]
    assert drive.find("driver").get("type") == "raw"
    assert drive.find("target").get("bus") == "virtio"
    assert drive.find("readonly") is not None
    # Named after the disks the guest already has.
    taken = [config.GuestDisk("/r", "vda"), config.GuestDisk("/e", "vdb")]
    CONF.set_override("config_drive_format", "vfat")
    try:
        assert config.config_drive_disk("/d", None, tuple(taken)).target_dev == "vdc"
    finally:
        CONF.clear_override("config_drive_format")


def test_config_drive_bus_follows_the_machine_type():
    assert config.config_drive_disk("/d", "pc-i440fx-8.2").bus == "ide"
    q35 = config.config_drive_disk("/d", "q35")
    assert (q35.bus, q35.target_dev, q35.device) == ("sata", "sda", "cdrom")
    CONF.set_override("hw_machine_type", ["x86_64=q35"], group="libvirt")
    try:
        assert config.machine_type(objects.ImageMeta.from_dict({})) == "q35"
        image = objects.ImageMeta.from_dict({"properties": {"hw_machine_type": "pc"}})
        assert config.machine_type(image) == "pc"
    finally:
        CONF.clear_override("hw_machine_type", group="libvirt")
