"""A real guest through the whole stack: Glance image set (kernel, ramdisk,
disk) uploaded with the openstack CLI, booted on QEMU through nova-api, the
scheduler, the conductors and nova-compute's libvirt driver, then stopped,
started, rebooted soft and hard, paused, suspended and deleted with the
openstack CLI; the console log read with ``openstack console log show``.

Prints the measured times (create to ACTIVE, create to the guest's boot
marker) and QEMU's RSS per guest.
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path

import pytest

from nova.states import power_state
from tests.fixtures.local_cloud import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.mysql, pytest.mark.rabbitmq]

BOOT_MARKER = "GUEST-BOOT-OK"
BOOT_TIMEOUT = 180
ACTION_TIMEOUT = 180


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def _domain(uuid_: str):
    import libvirt

    conn = libvirt.open("qemu:///system")
    try:
        return conn.lookupByUUIDString(uuid_)
    except libvirt.libvirtError:
        return None


def _qemu_rss_mib(instance_name: str) -> int:
    pid = Path(f"/run/libvirt/qemu/{instance_name}.pid").read_text().strip()
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) // 1024


@pytest.fixture(scope="module")
def image_set(libvirt_cloud, guest_images):
    cloud, _ = libvirt_cloud

    def upload(path, disk_format, container_format, *properties):
        return cloud.openstack(
            "image", "create", "--public", "--file", str(path),
            "--disk-format", disk_format, "--container-format", container_format,
            *properties, _unique(path.stem),
        )  # fmt: skip

    kernel = upload(guest_images.kernel, "aki", "aki")
    ramdisk = upload(guest_images.ramdisk, "ari", "ari")
    disk = upload(
        guest_images.disk, "qcow2", "bare",
        "--property", f"kernel_id={kernel['id']}",
        "--property", f"ramdisk_id={ramdisk['id']}",
    )  # fmt: skip
    return {"kernel": kernel, "ramdisk": ramdisk, "disk": disk}


@pytest.fixture(scope="module")
def flavor(libvirt_cloud):
    cloud, _ = libvirt_cloud
    name = _unique("tiny")
    # 96 MiB: the Debian cloud kernel needs more than 64.
    cloud.openstack("flavor", "create", "--ram", "96", "--disk", "1", name)
    return name


def _server(cloud, server_id: str) -> dict:
    return cloud.openstack("server", "show", server_id)


def _wait_status(cloud, server_id: str, status: str, power: int) -> dict:
    def settled():
        shown = _server(cloud, server_id)
        if shown["status"] == "ERROR":
            raise AssertionError(f"{server_id} went to ERROR: {shown.get('fault')}")
        if (
            shown["status"] == status
            and shown["OS-EXT-STS:task_state"] is None
            and shown["OS-EXT-STS:power_state"] == power
        ):
            return shown
        return None

    return wait_for(settled, ACTION_TIMEOUT, f"{server_id} {status}", interval=1)


def _console_log(cloud, server_id: str) -> str:
    return cloud.openstack(
        "console", "log", "show", server_id,
        cloud=cloud.services.demo_cloud, json_output=False,
    )  # fmt: skip


def _wait_boots(cloud, server_id: str, count: int) -> str:
    """Wait until the console log shows ``count`` boot markers."""
    return wait_for(
        lambda: (
            (log := _console_log(cloud, server_id)).count(BOOT_MARKER) >= count and log
        ),
        BOOT_TIMEOUT,
        f"boot marker #{count} of {server_id}",
        interval=1,
    )


def test_guest_lifecycle_on_qemu(libvirt_cloud, image_set, flavor):
    cloud, compute = libvirt_cloud
    demo = cloud.services.demo_cloud
    disk_image = image_set["disk"]["id"]

    def server_cli(*args, **kwargs):
        return cloud.openstack("server", *args, cloud=demo, **kwargs)

    # -- create: time to ACTIVE and to the guest's boot marker --------------
    name = _unique("vm")
    started = time.monotonic()
    created = server_cli(
        "create", "--flavor", flavor, "--image", disk_image, "--no-network", name
    )
    server_id = created["id"]
    console_file = compute.instances_path / server_id / "console.log"
    active_after = marker_after = None
    while time.monotonic() - started < BOOT_TIMEOUT and marker_after is None:
        if active_after is None:
            shown = cloud.compute().get(f"/servers/{server_id}").json()["server"]
            assert shown["status"] != "ERROR", shown.get("fault")
            if shown["status"] == "ACTIVE":
                active_after = time.monotonic() - started
        if console_file.exists() and BOOT_MARKER in console_file.read_text(
            errors="replace"
        ):
            marker_after = time.monotonic() - started
        time.sleep(0.2)
    assert marker_after is not None, f"no boot marker:\n{compute.log()[-3000:]}"
    while active_after is None and time.monotonic() - started < BOOT_TIMEOUT:
        if (
            cloud.compute().get(f"/servers/{server_id}").json()["server"]["status"]
            == "ACTIVE"
        ):
            active_after = time.monotonic() - started
        time.sleep(0.2)
    assert active_after is not None

    log = _wait_boots(cloud, server_id, 1)
    assert BOOT_MARKER in log
    shown = _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    instance_name = _domain(server_id).name()
    assert instance_name.startswith(compute.host)
    assert shown["OS-EXT-SRV-ATTR:host"] == compute.host
    # The guest sees its root disk grown to the flavor's 1 GiB.
    assert "vda_sectors=2097152" in log
    time.sleep(2)
    rss_first = _qemu_rss_mib(instance_name)
    print(
        f"\n[libvirt e2e] create->ACTIVE {active_after:.1f}s, "
        f"create->boot marker {marker_after:.1f}s, "
        f"QEMU RSS {rss_first} MiB (first guest)"
    )

    # -- stop / start / reboot ---------------------------------------------
    server_cli("stop", server_id, json_output=False)
    _wait_status(cloud, server_id, "SHUTOFF", power_state.SHUTDOWN)
    assert not _domain(server_id).isActive()
    server_cli("start", server_id, json_output=False)
    _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    _wait_boots(cloud, server_id, 2)
    server_cli("reboot", server_id, json_output=False)
    _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    _wait_boots(cloud, server_id, 3)
    server_cli("reboot", "--hard", server_id, json_output=False)
    _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    _wait_boots(cloud, server_id, 4)

    # -- a second server of the same image: the cached base is reused -------
    cache = sorted(p.name for p in compute.image_cache.iterdir() if p.is_file()
                   and not p.name.startswith("."))  # fmt: skip
    assert len(cache) == 3  # kernel, ramdisk, disk
    inodes = {p: (compute.image_cache / p).stat().st_ino for p in cache}
    second = server_cli(
        "create", "--flavor", flavor, "--image", disk_image, "--no-network",
        "--wait", _unique("vm2"),
    )  # fmt: skip
    second_id = second["id"]
    _wait_boots(cloud, second_id, 1)
    assert compute.log().count("Downloading image") == 3
    assert {p: (compute.image_cache / p).stat().st_ino for p in cache} == inodes
    rss_second = _qemu_rss_mib(_domain(second_id).name())

    # -- pause / unpause / suspend / resume on the second -------------------
    for action, status, power in (
        ("pause", "PAUSED", power_state.PAUSED),
        ("unpause", "ACTIVE", power_state.RUNNING),
        ("suspend", "SUSPENDED", power_state.SUSPENDED),
        ("resume", "ACTIVE", power_state.RUNNING),
    ):
        server_cli(action, second_id, json_output=False)
        _wait_status(cloud, second_id, status, power)
    # Resumed from its saved memory, not booted again.
    assert _console_log(cloud, second_id).count(BOOT_MARKER) == 1

    # -- delete: nothing of either server stays on the host -----------------
    server_cli("delete", "--wait", server_id, second_id, json_output=False)
    for uuid_ in (server_id, second_id):
        assert _domain(uuid_) is None
        assert not (compute.instances_path / uuid_).exists()
    assert not any(
        p.name in (server_id, second_id) for p in compute.instances_path.iterdir()
    )

    print(f"[libvirt e2e] QEMU RSS {rss_second} MiB (second guest)")
