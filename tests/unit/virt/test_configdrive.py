"""Config drives as a guest reads them: the ISO is opened with pycdlib and
its files compared with what the metadata API serves."""

import base64
import io
import json

import pycdlib
import pytest

from nova import exception, objects
from nova.conf import CONF
from nova.metadata import instance as instance_metadata
from nova.virt import configdrive, fake

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


def _read(image: bytes, path: str) -> bytes:
    iso = pycdlib.PyCdlib()
    iso.open_fp(io.BytesIO(image))
    try:
        out = io.BytesIO()
        iso.get_file_from_iso_fp(out, rr_path="/" + path)
        return out.getvalue()
    finally:
        iso.close()


def _listing(image: bytes, directory: str) -> set[str]:
    iso = pycdlib.PyCdlib()
    iso.open_fp(io.BytesIO(image))
    try:
        return {
            child.rock_ridge.name().decode()
            for child in iso.list_children(rr_path="/" + directory)
            if not (child.is_dot() or child.is_dotdot())
        }
    finally:
        iso.close()


@pytest.fixture
def drive():
    instance = _instance()
    metadata = configdrive.metadata_of(
        instance,
        [["/etc/motd", base64.b64encode(FILE_BYTES).decode()]],
        admin_password="s3cret",
    )
    return configdrive.make_iso(list(metadata.config_drive_files()))


def test_the_drive_is_labelled_config_2(drive):
    iso = pycdlib.PyCdlib()
    iso.open_fp(io.BytesIO(drive))
    try:
        assert iso.pvd.volume_identifier.decode().strip() == "config-2"
    finally:
        iso.close()


def test_the_drive_carries_the_openstack_tree(drive):
    meta = json.loads(_read(drive, "openstack/latest/meta_data.json"))
    assert meta["uuid"] == UUID
    assert meta["public_keys"] == {"demo": KEY}
    assert meta["meta"] == {"role": "web"}
    assert meta["admin_pass"] == "s3cret"
    assert meta["files"] == [{"path": "/etc/motd", "content_path": "/content/0000"}]
    assert _read(drive, "openstack/content/0000") == FILE_BYTES
    assert _read(drive, "openstack/latest/user_data") == USER_DATA
    assert json.loads(_read(drive, "openstack/latest/network_data.json")) == {
        "links": [],
        "networks": [],
        "services": [],
    }
    assert json.loads(_read(drive, "openstack/latest/vendor_data.json")) == {}
    assert json.loads(_read(drive, "openstack/latest/vendor_data2.json")) == {}
    # Every OpenStack version, each with the files it had; no password
    # (a guest posts that to the metadata API).
    assert _listing(drive, "openstack") == {
        *instance_metadata.OPENSTACK_VERSIONS,
        "latest",
        "content",
    }
    assert _listing(drive, "openstack/2012-08-10") == {"meta_data.json", "user_data"}
    assert "password" not in _listing(drive, "openstack/latest")


def test_the_drive_carries_the_ec2_tree_but_the_skipped_versions(drive):
    assert _listing(drive, "ec2") == {"2009-04-04", "latest"}
    meta = json.loads(_read(drive, "ec2/latest/meta-data.json"))
    assert meta["instance-id"] == "i-0000002a"
    assert meta["public-keys"] == {"0=demo": {"openssh-key": KEY}}
    assert _read(drive, "ec2/latest/user-data") == USER_DATA


def test_the_drive_and_the_metadata_api_say_the_same(drive):
    served = json.loads(
        instance_metadata.InstanceMetadata(_instance()).lookup_openstack(
            ["latest", "meta_data.json"]
        )
    )
    on_drive = json.loads(_read(drive, "openstack/latest/meta_data.json"))
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


def test_vfat_is_refused_at_start():
    configdrive.check_format()
    CONF.set_override("config_drive_format", "vfat")
    try:
        with pytest.raises(exception.ConfigDriveUnsupportedFormat, match="vfat"):
            fake.FakeDriver().init_host("h1")
    finally:
        CONF.clear_override("config_drive_format")


def test_the_fake_driver_writes_and_removes_the_drive(tmp_path):
    CONF.set_override("instances_path", str(tmp_path))
    try:
        virt = fake.FakeDriver()
        virt.init_host("h1")
        instance = _instance(config_drive="True")
        virt.spawn(None, instance, None, [], None, {})
        path = tmp_path / UUID / configdrive.FILE_NAME
        meta = json.loads(_read(path.read_bytes(), "openstack/latest/meta_data.json"))
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
