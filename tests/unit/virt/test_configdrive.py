"""Config drives as a guest reads them, in both formats: the ISO is opened
with pycdlib, the vfat image with mtools (after fsck.vfat checked it), and
their files compared with what the metadata API serves."""

import base64
import io
import json
import shutil
import subprocess

import pycdlib
import pytest

from nova import exception, objects
from nova.conf import CONF
from nova.metadata import instance as instance_metadata
from nova.virt import configdrive, fake
from tests.fixtures.databases import skip_or_fail

objects.register_all()

UUID = "0b6a8f1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b"
USER_DATA = b"#!/bin/sh\necho hello from user_data\n"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK3pfUZxMGrsuiBl1Qk3kSJcv8Flb demo@box"
FILE_BYTES = b"\x00binary\xffpersonality\n"


def _instance(**overrides):
    values = dict(
        id=42,
        uuid=UUID,
        display_name="guest",
        hostname="guest",
        project_id="p1",
        user_id="u1",
        image_ref="155d900f-4e14-4e4c-a73d-069cbf4541e6",
        kernel_id=None,
        ramdisk_id=None,
        launch_index=0,
        availability_zone="nova",
        reservation_id="r-abcdefgh",
        root_device_name="/dev/vda",
        key_name="demo",
        key_data=KEY,
        user_data=base64.b64encode(USER_DATA).decode(),
        metadata={"role": "web"},
        system_metadata={},
        info_cache=None,
        config_drive="",
        deleted=False,
        flavor=objects.Flavor(
            name="tiny", vcpus=1, memory_mb=64, root_gb=1, ephemeral_gb=0, swap=0
        ),
    )
    values.update(overrides)
    return objects.Instance(**values)


class IsoDrive:
    def __init__(self, image: bytes) -> None:
        self.image = image

    def _open(self) -> pycdlib.PyCdlib:
        iso = pycdlib.PyCdlib()
        iso.open_fp(io.BytesIO(self.image))
        return iso

    def label(self) -> str:
        iso = self._open()
        try:
            return iso.pvd.volume_identifier.decode().strip()
        finally:
            iso.close()

    def read(self, path: str) -> bytes:
        iso = self._open()
        try:
            out = io.BytesIO()
            iso.get_file_from_iso_fp(out, rr_path="/" + path)
            return out.getvalue()
        finally:
            iso.close()

    def listing(self, directory: str) -> set[str]:
        iso = self._open()
        try:
            return {
                child.rock_ridge.name().decode()
                for child in iso.list_children(rr_path="/" + directory)
                if not (child.is_dot() or child.is_dotdot())
            }
        finally:
            iso.close()


class VfatDrive:
    """A vfat image read through mtools, without mounting it."""

    def __init__(self, path) -> None:
        self.path = str(path)

    def _mtool(self, tool: str, *argv: str) -> bytes:
        return subprocess.run(
            [tool, "-i", self.path, *argv],
            check=True,
            capture_output=True,
            timeout=60,
            env={"MTOOLS_SKIP_CHECK": "1", "PATH": "/usr/bin:/bin"},
        ).stdout

    def label(self) -> str:
        # "Volume label is config-2"
        return self._mtool("mlabel", "-s", "::").decode().split(" is ")[-1].strip()

    def read(self, path: str) -> bytes:
        return self._mtool("mcopy", f"::/{path}", "-")

    def listing(self, directory: str) -> set[str]:
        names = self._mtool("mdir", "-b", f"::/{directory}").decode().splitlines()
        return {name.rstrip("/").rsplit("/", 1)[-1] for name in names if name}


def _drive_files():
    metadata = configdrive.metadata_of(
        _instance(),
        [["/etc/motd", base64.b64encode(FILE_BYTES).decode()]],
        admin_password="s3cret",
    )
    return list(metadata.config_drive_files())


def _vfat_tools_missing() -> None:
    if not all(map(shutil.which, ("mkfs.vfat", "fsck.vfat", "mcopy"))):
        skip_or_fail("dosfstools or mtools missing (apt-get install dosfstools mtools)")


@pytest.fixture(params=["iso9660", "vfat"])
def drive(request, tmp_path):
    if request.param == "iso9660":
        return IsoDrive(configdrive.make_iso(_drive_files()))
    _vfat_tools_missing()
    path = tmp_path / "disk.config"
    configdrive.make_vfat(_drive_files(), str(path))
    assert path.stat().st_size == configdrive.VFAT_SIZE_MIB * 1024 * 1024
    checked = subprocess.run(
        ["fsck.vfat", "-n", str(path)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return VfatDrive(path)


def test_the_drive_is_labelled_config_2(drive):
    assert drive.label() == "config-2"


def test_the_drive_carries_the_openstack_tree(drive):
    meta = json.loads(drive.read("openstack/latest/meta_data.json"))
    assert meta["uuid"] == UUID
    assert meta["public_keys"] == {"demo": KEY}
    assert meta["meta"] == {"role": "web"}
    assert meta["admin_pass"] == "s3cret"
    assert meta["files"] == [{"path": "/etc/motd", "content_path": "/content/0000"}]
    assert drive.read("openstack/content/0000") == FILE_BYTES
    assert drive.read("openstack/latest/user_data") == USER_DATA
    assert json.loads(drive.read("openstack/latest/network_data.json")) == {
        "links": [],
        "networks": [],
        "services": [],
    }
    assert json.loads(drive.read("openstack/latest/vendor_data.json")) == {}
    assert json.loads(drive.read("openstack/latest/vendor_data2.json")) == {}
    # Every OpenStack version, each with the files it had; no password
    # (a guest posts that to the metadata API).
    assert drive.listing("openstack") == {
        *instance_metadata.OPENSTACK_VERSIONS,
        "latest",
        "content",
    }
    assert drive.listing("openstack/2012-08-10") == {"meta_data.json", "user_data"}
    assert "password" not in drive.listing("openstack/latest")


def test_the_drive_carries_the_ec2_tree_but_the_skipped_versions(drive):
    assert drive.listing("ec2") == {"2009-04-04", "latest"}
    meta = json.loads(drive.read("ec2/latest/meta-data.json"))
    assert meta["instance-id"] == "i-0000002a"
    assert meta["public-keys"] == {"0=demo": {"openssh-key": KEY}}
    assert drive.read("ec2/latest/user-data") == USER_DATA


def test_the_drive_and_the_metadata_api_say_the_same(drive):
    served = json.loads(
        instance_metadata.InstanceMetadata(_instance()).lookup_openstack(
            ["latest", "meta_data.json"]
        )
    )
    on_drive = json.loads(drive.read("openstack/latest/meta_data.json"))
    # What only the drive carries: the personality files and admin
    # password; random_seed is fresh each time.
    for only_on_the_drive in ("files", "admin_pass"):
        assert only_on_the_drive not in served
        on_drive.pop(only_on_the_drive)
    served.pop("random_seed")
    on_drive.pop("random_seed")
    assert on_drive == served


def test_who_gets_a_drive():
    plain = objects.ImageMeta.from_dict({})
    mandatory = objects.ImageMeta.from_dict(
        {"properties": {"img_config_drive": "mandatory"}}
    )
    assert not configdrive.required_by(_instance(), plain)
    assert not configdrive.required_by(_instance(), None)
    assert configdrive.required_by(_instance(config_drive="True"), plain)
    assert configdrive.required_by(_instance(), mandatory)
    CONF.set_override("force_config_drive", True)
    try:
        assert configdrive.required_by(_instance(), plain)
    finally:
        CONF.clear_override("force_config_drive")


def test_vfat_without_its_programs_is_refused_at_start(monkeypatch):
    configdrive.check_format()
    CONF.set_override("config_drive_format", "vfat")
    try:
        monkeypatch.setenv("PATH", "/nonexistent")
        with pytest.raises(
            exception.ConfigDriveUnsupportedFormat,
            match="install dosfstools and mtools",
        ):
            fake.FakeDriver().init_host("h1")
    finally:
        CONF.clear_override("config_drive_format")


def test_the_drive_has_the_configured_format(tmp_path):
    _vfat_tools_missing()
    instance = _instance()
    path = tmp_path / configdrive.FILE_NAME
    configdrive.write_config_drive(str(path), instance)
    assert path.read_bytes()[0x8001:0x8006] == b"CD001"
    CONF.set_override("config_drive_format", "vfat")
    try:
        configdrive.write_config_drive(str(path), instance)
    finally:
        CONF.clear_override("config_drive_format")
    assert VfatDrive(path).label() == "config-2"
    meta = json.loads(VfatDrive(path).read("openstack/latest/meta_data.json"))
    assert meta["uuid"] == UUID
    assert not list(tmp_path.glob("*.part"))


def test_the_fake_driver_writes_and_removes_the_drive(tmp_path):
    CONF.set_override("instances_path", str(tmp_path))
    try:
        virt = fake.FakeDriver()
        virt.init_host("h1")
        instance = _instance(config_drive="True")
        virt.spawn(None, instance, None, [], None, {})
        path = tmp_path / UUID / configdrive.FILE_NAME
        meta = json.loads(
            IsoDrive(path.read_bytes()).read("openstack/latest/meta_data.json")
        )
        assert meta["uuid"] == UUID
        assert instance.config_drive == "True"
        virt.destroy(None, instance)
        assert not path.exists()

        # Without a drive asked for, none is made and the flag stays off.
        other = _instance(config_drive="")
        virt.spawn(None, other, None, [], None, {})
        assert not path.exists()
        assert other.config_drive == ""
    finally:
        CONF.clear_override("instances_path")
