"""LibvirtDriver rescue and unrescue on ``test:///default``: the rescue
guest boots a rescue disk with the original root second; unrescue brings
back the domain as it was."""

import io
import json
import os
import xml.etree.ElementTree as ET

import pycdlib
import pytest

from nova import exception, objects
from nova.states import power_state
from nova.virt.libvirt import imagebackend


def _domain(virt, instance) -> ET.Element:
    return ET.fromstring(virt._host.get_domain(instance).XMLDesc(0))


def _disks(virt, instance) -> list[tuple[str, str]]:
    return [
        (d.find("target").get("dev"), os.path.basename(d.find("source").get("file")))
        for d in _domain(virt, instance).findall("devices/disk")
    ]


@pytest.fixture
def spawned(libvirt_driver, make_instance, images):
    images.images["rescue-image"] = images.images["root-image"]
    instance = make_instance()
    libvirt_driver.spawn(None, instance, objects.ImageMeta.from_dict({}), [], None, {})
    return instance


def _rescue(virt, instance, image="rescue-image"):
    virt.rescue(None, instance, [], objects.ImageMeta.from_dict({"id": image}), "pw")


def test_rescue_boots_the_rescue_disk_with_the_root_second(
    libvirt_driver, spawned, images
):
    virt = libvirt_driver
    before = _disks(virt, spawned)
    _rescue(virt, spawned)
    assert virt.get_info(spawned).state == power_state.RUNNING
    assert _disks(virt, spawned) == [("vda", "disk.rescue"), ("vdb", "disk")]
    rescue_disk = os.path.join(virt.instance_dir(spawned), "disk.rescue")
    assert imagebackend.image_info(rescue_disk)["backing-filename"] == (
        virt.image_cache.base_path("rescue-image")
    )
    assert "rescue-image" in images.downloads

    virt.unrescue(None, spawned)
    assert virt.get_info(spawned).state == power_state.RUNNING
    assert _disks(virt, spawned) == before
    assert not os.path.exists(rescue_disk)
    assert not os.path.exists(os.path.join(virt.instance_dir(spawned), "unrescue.xml"))


def test_failed_rescue_keeps_the_original_domain(libvirt_driver, spawned):
    virt = libvirt_driver
    before = _disks(virt, spawned)
    with pytest.raises(KeyError):  # the image service has no such image
        _rescue(virt, spawned, image="no-such-image")
    assert _disks(virt, spawned) == before
    assert virt.get_info(spawned).state == power_state.RUNNING
    assert not os.path.exists(os.path.join(virt.instance_dir(spawned), "unrescue.xml"))


def test_rescue_of_an_absent_guest_is_instance_not_found(libvirt_driver, make_instance):
    with pytest.raises(exception.InstanceNotFound):
        _rescue(libvirt_driver, make_instance())


def test_rescue_guest_gets_a_config_drive_with_the_rescue_password(
    libvirt_driver, make_instance, images
):
    virt = libvirt_driver
    images.images["rescue-image"] = images.images["root-image"]
    instance = make_instance(config_drive="True")
    virt.spawn(None, instance, objects.ImageMeta.from_dict({}), [], "boot-pw", {})
    _rescue(virt, instance)
    assert _disks(virt, instance) == [
        ("vda", "disk.rescue"),
        ("vdb", "disk"),
        ("hdd", "disk.config.rescue"),
    ]
    rescue_drive = os.path.join(virt.instance_dir(instance), "disk.config.rescue")
    iso = pycdlib.PyCdlib()
    iso.open(rescue_drive)
    try:
        out = io.BytesIO()
        iso.get_file_from_iso_fp(out, rr_path="/openstack/latest/meta_data.json")
    finally:
        iso.close()
    assert json.loads(out.getvalue())["admin_pass"] == "pw"

    virt.unrescue(None, instance)
    assert ("hdd", "disk.config") in _disks(virt, instance)
    assert not os.path.exists(rescue_drive)
