"""A vfat config drive inside a real guest: on a cloud set to ``[DEFAULT]
config_drive_format = vfat`` the compute makes a 64 MiB FAT image labelled
``config-2`` and libvirt attaches it as a virtio disk; the test image's
init finds it by its label, mounts it as vfat and prints its uuid and
user_data on the console."""

from __future__ import annotations

import pytest

from nova.states import power_state
from tests.e2e.test_libvirt_config_drive import MARKER, wait_for_drive_lines
from tests.e2e.test_libvirt_guest_lifecycle import (  # noqa: F401  (fixtures)
    _unique,
    _wait_status,
    flavor,
    image_set,
)

pytestmark = [pytest.mark.e2e, pytest.mark.mysql, pytest.mark.rabbitmq]


@pytest.fixture(scope="module")
def libvirt_cloud_options():
    return {"DEFAULT": {"config_drive_format": "vfat"}}


def test_guest_mounts_a_vfat_config_drive(libvirt_cloud, image_set, flavor, tmp_path):  # noqa: F811
    cloud, compute = libvirt_cloud
    demo = cloud.services.demo_cloud
    user_data = tmp_path / "user-data"
    user_data.write_text("hello-from-vfat")
    created = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image_set["disk"]["id"],
        "--no-network", "--config-drive", "true", "--user-data", str(user_data),
        _unique("vfat"), cloud=demo,
    )  # fmt: skip
    server_id = created["id"]
    shown = _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    assert shown["config_drive"] == "True"
    drive = compute.instances_path / server_id / "disk.config"
    assert drive.stat().st_size == 64 * 1024 * 1024

    lines = wait_for_drive_lines(cloud, server_id)
    # The first virtio disk after the root disk.
    assert f"{MARKER} label=config-2 device=/dev/vdb uuid={server_id}" in lines
    assert f"{MARKER} fs=vfat" in lines
    assert f"{MARKER} user_data=hello-from-vfat" in lines
    cloud.openstack("server", "delete", "--wait", server_id, cloud=demo,
                    json_output=False)  # fmt: skip
