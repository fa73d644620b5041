"""The libvirt driver on libvirt's built-in ``test:///default`` hypervisor:
real libvirt API calls, no daemon, no QEMU."""

import os
import shutil
import subprocess
import uuid

import pytest

import nova.conf
from nova import objects

CONF = nova.conf.CONF
objects.register_all()


def libvirt_unavailable_reason() -> str | None:
    try:
        import libvirt  # noqa: F401
    except ImportError:
        return "libvirt-python is not installed"
    if shutil.which("qemu-img") is None:
        return "qemu-img is not installed"
    return None


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must test the libvirt driver: {reason}")
    pytest.skip(reason)


class FakeImageAPI:
    """Image data from local files, counting downloads (Glance's role is
    tested end to end in tests/e2e)."""

    def __init__(self, images: dict[str, bytes]) -> None:
        self.images = images
        self.downloads: list[str] = []
        self.metadata: dict[str, dict] = {}

    def download(self, context, image_id, dst_path):
        self.downloads.append(image_id)
        with open(dst_path, "wb") as out:
            out.write(self.images[image_id])

    def update(self, context, image_id, changes):
        self.metadata.setdefault(image_id, {}).update(changes)

    def upload(self, context, image_id, data):
        self.images[image_id] = data.read()


@pytest.fixture
def images(tmp_path):
    """A raw 1 MiB root image and a kernel and ramdisk blob."""
    raw = tmp_path / "root.raw"
    raw.write_bytes(b"ROOT" + b"\0" * (1024 * 1024 - 4))
    qcow = tmp_path / "root.qcow2"
    subprocess.run(
        ["qemu-img", "convert", "-f", "raw", "-O", "qcow2", str(raw), str(qcow)],
        check=True,
    )
    return FakeImageAPI(
        {
            "root-image": qcow.read_bytes(),
            "kernel-image": b"KERNEL",
            "ramdisk-image": b"RAMDISK",
        }
    )


@pytest.fixture
def libvirt_driver(tmp_path, images):
    reason = libvirt_unavailable_reason()
    if reason:
        _skip_or_fail(reason)
    from nova.virt.libvirt import driver

    CONF.set_override("instances_path", str(tmp_path / "instances"))
    CONF.set_override("connection_uri", "test:///default", group="libvirt")
    CONF.set_override("virt_type", "qemu", group="libvirt")
    virt = driver.LibvirtDriver(image=images)
    virt.init_host("host1")
    created = []
    virt.created = created
    yield virt
    for instance in created:
        virt.destroy(None, instance)
    virt.cleanup_host("host1")
    CONF.clear_override("instances_path")
    CONF.clear_override("connection_uri", group="libvirt")
    CONF.clear_override("virt_type", group="libvirt")


@pytest.fixture
def make_instance(libvirt_driver):
    def make(**overrides):
        values = dict(
            id=1,
            uuid=str(uuid.uuid4()),
            display_name="vm1",
            project_id="p1",
            user_id="u1",
            image_ref="root-image",
            kernel_id=None,
            ramdisk_id=None,
            system_metadata={},
            # What a config drive's metadata reads.
            hostname="vm1",
            launch_index=0,
            availability_zone="nova",
            reservation_id="r-1",
            root_device_name="/dev/vda",
            key_name=None,
            key_data=None,
            user_data=None,
            metadata={},
            info_cache=None,
            config_drive="",
            flavor=objects.Flavor(
                name="tiny",
                flavorid="1",
                vcpus=1,
                memory_mb=96,
                root_gb=1,
                ephemeral_gb=1,
                swap=16,
            ),
        )
        values.update(overrides)
        instance = objects.Instance(**values)
        libvirt_driver.created.append(instance)
        return instance

    return make
