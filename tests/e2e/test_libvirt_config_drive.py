"""Config drives inside real guests on QEMU, without any network: the test
image's init mounts the cdrom labelled ``config-2`` and prints its uuid,
user_data and first personality file on the console (``CONFIG-DRIVE``
lines), read back with ``openstack console log show``.

One server asks with ``openstack server create --config-drive true
--user-data --key-name``; the other gets a drive because its image says
``img_config_drive=mandatory`` and carries a personality file (sent over
REST at 2.56: the openstack CLI's ``--file`` no longer works).
"""

from __future__ import annotations

import base64

import pytest

from nova.states import power_state
from tests.e2e.test_libvirt_guest_lifecycle import (  # noqa: F401  (fixtures)
    BOOT_TIMEOUT,
    _console_log,
    _unique,
    _wait_status,
    flavor,
    image_set,
)
from tests.fixtures.local_cloud import wait_for
from tests.integration.test_compute_api_rbac import _public_key

pytestmark = [pytest.mark.e2e, pytest.mark.mysql, pytest.mark.rabbitmq]

MARKER = "CONFIG-DRIVE"


def wait_for_drive_lines(cloud, server_id: str) -> list[str]:
    """The guest's CONFIG-DRIVE lines, once it printed what it found."""

    def printed():
        log = _console_log(cloud, server_id)
        lines = [line.strip() for line in log.splitlines() if MARKER in line]
        return lines if any(line.startswith(f"{MARKER} ") for line in lines) else None

    return wait_for(printed, BOOT_TIMEOUT, f"{server_id}'s config drive", interval=2)


def test_guest_reads_its_config_drive(libvirt_cloud, image_set, flavor, tmp_path):  # noqa: F811
    cloud, compute = libvirt_cloud
    demo = cloud.services.demo_cloud
    key_name = _unique("key")
    cloud.openstack(
        "keypair", "create", "--public-key", _public_key(tmp_path), key_name,
        cloud=demo,
    )  # fmt: skip
    user_data = tmp_path / "user-data"
    user_data.write_text("hello-from-user-data")

    created = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image_set["disk"]["id"],
        "--no-network", "--config-drive", "true", "--user-data", str(user_data),
        "--key-name", key_name, _unique("cd"), cloud=demo,
    )  # fmt: skip
    server_id = created["id"]
    shown = _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    assert shown["config_drive"] == "True"
    assert (compute.instances_path / server_id / "disk.config").exists()

    lines = wait_for_drive_lines(cloud, server_id)
    assert f"{MARKER} label=config-2 device=/dev/sr0 uuid={server_id}" in lines
    assert f"{MARKER} fs=iso9660" in lines
    assert f"{MARKER} user_data=hello-from-user-data" in lines
    cloud.openstack("server", "delete", "--wait", server_id, cloud=demo,
                    json_output=False)  # fmt: skip


def test_mandatory_image_drive_carries_a_personality_file(
    libvirt_cloud,
    image_set,  # noqa: F811
    flavor,  # noqa: F811
):
    cloud, _ = libvirt_cloud
    demo = cloud.services.demo_cloud
    disk = image_set["disk"]["id"]
    cloud.openstack(
        "image", "set", "--property", "img_config_drive=mandatory", disk,
        json_output=False,
    )  # fmt: skip
    try:
        api = cloud.compute(cloud.services.demo, microversion="2.56")
        flavor_id = cloud.openstack("flavor", "show", flavor)["id"]
        response = api.post(
            "/servers",
            json={
                "server": {
                    "name": _unique("mandatory"),
                    "flavorRef": flavor_id,
                    "imageRef": disk,
                    "networks": "none",
                    "personality": [
                        {
                            "path": "/etc/motd",
                            "contents": base64.b64encode(b"personality-here").decode(),
                        }
                    ],
                }
            },
        )
        assert response.status_code == 202, response.text
        server_id = response.json()["server"]["id"]
        shown = _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
        assert shown["config_drive"] == "True"
        lines = wait_for_drive_lines(cloud, server_id)
        assert f"{MARKER} label=config-2 device=/dev/sr0 uuid={server_id}" in lines
        assert f"{MARKER} file0=personality-here" in lines
        cloud.openstack("server", "delete", "--wait", server_id, cloud=demo,
                        json_output=False)  # fmt: skip
    finally:
        cloud.openstack(
            "image", "unset", "--property", "img_config_drive", disk,
            json_output=False,
        )  # fmt: skip
