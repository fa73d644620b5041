"""Config drives and personality files through the unmodified ``openstack``
CLI, on a local cloud whose fake computes write the drive they would attach
(``<state_path>/instances/<uuid>/disk.config``), opened here as a guest
would read it."""

from __future__ import annotations

import io
import json
import uuid

import pycdlib
import pytest

from tests.fixtures.openstack_services import OpenStackCLIError
from tests.integration.test_boot_path import image  # noqa: F401  (fixture)
from tests.integration.test_compute_api_rbac import _public_key

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

# Personality files went away at 2.57.
PERSONALITY_VERSION = "2.56"


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _drive_file(cloud, server: dict) -> bytes:
    host = server["OS-EXT-SRV-ATTR:host"]
    index = int(host.rsplit("-", 1)[1])
    state_path = cloud.deployment.nova.compute_state_path(index)
    return (state_path / "instances" / server["id"] / "disk.config").read_bytes()


def _read(image_bytes: bytes, path: str) -> bytes:
    iso = pycdlib.PyCdlib()
    iso.open_fp(io.BytesIO(image_bytes))
    try:
        out = io.BytesIO()
        iso.get_file_from_iso_fp(out, rr_path=path)
        return out.getvalue()
    finally:
        iso.close()


def test_config_drive_user_data_key_and_personality(local_cloud, image, tmp_path):  # noqa: F811
    demo = local_cloud.services.demo_cloud
    flavor = _flavor(local_cloud)
    key_name = _unique("key")
    public_key = _public_key(tmp_path)
    local_cloud.openstack(
        "keypair", "create", "--public-key", public_key, key_name, cloud=demo
    )
    user_data = tmp_path / "user-data"
    user_data.write_bytes(b"#!/bin/sh\necho config drive user data\n")
    motd = tmp_path / "motd"
    motd.write_bytes(b"injected by personality\n")

    created = local_cloud.openstack(
        "--os-compute-api-version", PERSONALITY_VERSION,
        "server", "create", "--flavor", flavor, "--image", image["name"],
        "--no-network", "--config-drive", "true", "--user-data", str(user_data),
        "--key-name", key_name, "--file", f"/etc/motd={motd}", "--wait",
        _unique("cd"), cloud=demo,
    )  # fmt: skip
    assert created["status"] == "ACTIVE"
    shown = local_cloud.openstack("server", "show", created["id"])
    assert shown["config_drive"] == "True"

    drive = _drive_file(local_cloud, shown)
    meta = json.loads(_read(drive, "/openstack/latest/meta_data.json"))
    assert meta["uuid"] == created["id"]
    with open(public_key) as stream:
        assert meta["public_keys"] == {key_name: stream.read().strip()}
    assert meta["files"] == [{"path": "/etc/motd", "content_path": "/content/0000"}]
    assert _read(drive, "/openstack/content/0000") == motd.read_bytes()
    assert _read(drive, "/openstack/latest/user_data") == user_data.read_bytes()
    assert _read(drive, "/ec2/latest/user-data") == user_data.read_bytes()

    local_cloud.openstack(
        "server", "delete", "--wait", created["id"], cloud=demo, json_output=False
    )


def test_a_server_without_a_drive_shows_none(local_cloud, image):  # noqa: F811
    demo = local_cloud.services.demo_cloud
    created = local_cloud.openstack(
        "server", "create", "--flavor", _flavor(local_cloud),
        "--image", image["name"], "--no-network", "--wait", _unique("nocd"),
        cloud=demo,
    )  # fmt: skip
    shown = local_cloud.openstack("server", "show", created["id"])
    assert shown["config_drive"] == ""
    with pytest.raises(FileNotFoundError):
        _drive_file(local_cloud, shown)
    local_cloud.openstack(
        "server", "delete", "--wait", created["id"], cloud=demo, json_output=False
    )


def test_too_many_personality_files_are_refused(local_cloud, image, tmp_path):  # noqa: F811
    demo = local_cloud.services.demo_cloud
    motd = tmp_path / "motd"
    motd.write_bytes(b"x")
    # [quota] injected_files is 5 by default.
    files = [arg for n in range(6) for arg in ("--file", f"/etc/f{n}={motd}")]
    with pytest.raises(OpenStackCLIError, match="Personality file limit exceeded"):
        local_cloud.openstack(
            "--os-compute-api-version", PERSONALITY_VERSION,
            "server", "create", "--flavor", _flavor(local_cloud),
            "--image", image["name"], "--no-network", *files, _unique("many"),
            cloud=demo,
        )  # fmt: skip


def _flavor(cloud) -> str:
    name = _unique("cd")
    cloud.openstack(
        "flavor", "create", "--vcpus", "1", "--ram", "64", "--disk", "1", name
    )
    return name
