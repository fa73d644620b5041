"""Config drives and personality files through the unmodified ``openstack``
CLI (and REST for personality), on a local cloud whose fake computes write
the drive they would attach (``<state_path>/instances/<uuid>/disk.config``),
opened here as a guest would read it."""

from __future__ import annotations

import base64
import io
import json
import uuid
from pathlib import Path

import pycdlib
import pytest

from tests.fixtures.local_cloud import wait_for
from tests.integration.test_boot_path import image  # noqa: F401  (fixture)
from tests.integration.test_compute_api_rbac import _public_key

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

# Personality files went away at 2.57.
PERSONALITY_VERSION = "2.56"


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _drive_path(cloud, server: dict) -> Path:
    host = server["OS-EXT-SRV-ATTR:host"]
    index = int(host.rsplit("-", 1)[1])
    state_path = cloud.deployment.nova.configs.compute_state_path(index)
    return state_path / "instances" / server["id"] / "disk.config"


def _drive_file(cloud, server: dict) -> bytes:
    return _drive_path(cloud, server).read_bytes()


def _read(image_bytes: bytes, path: str) -> bytes:
    iso = pycdlib.PyCdlib()
    iso.open_fp(io.BytesIO(image_bytes))
    try:
        out = io.BytesIO()
        iso.get_file_from_iso_fp(out, rr_path=path)
        return out.getvalue()
    finally:
        iso.close()


def test_config_drive_with_user_data_and_key(local_cloud, image, tmp_path):  # noqa: F811
    demo = local_cloud.services.demo_cloud
    key_name = _unique("key")
    public_key = _public_key(tmp_path)
    local_cloud.openstack(
        "keypair", "create", "--public-key", public_key, key_name, cloud=demo
    )
    user_data = tmp_path / "user-data"
    user_data.write_bytes(b"#!/bin/sh\necho config drive user data\n")

    created = local_cloud.openstack(
        "server", "create", "--flavor", _flavor(local_cloud), "--image", image["name"],
        "--no-network", "--config-drive", "true", "--user-data", str(user_data),
        "--key-name", key_name, "--wait", _unique("cd"), cloud=demo,
    )  # fmt: skip
    assert created["status"] == "ACTIVE"
    shown = local_cloud.openstack("server", "show", created["id"])
    assert shown["config_drive"] == "True"

    drive = _drive_file(local_cloud, shown)
    meta = json.loads(_read(drive, "/openstack/latest/meta_data.json"))
    assert meta["uuid"] == created["id"]
    with open(public_key) as stream:
        assert meta["public_keys"] == {key_name: stream.read().strip()}
    assert _read(drive, "/openstack/latest/user_data") == user_data.read_bytes()
    assert _read(drive, "/ec2/latest/user-data") == user_data.read_bytes()

    local_cloud.openstack(
        "server", "delete", "--wait", created["id"], cloud=demo, json_output=False
    )
    assert not _drive_path(local_cloud, shown).exists()


def test_personality_files_land_on_the_drive(local_cloud, image):  # noqa: F811
    # The openstack CLI's --file cannot send files any more (its SDK fails
    # to serialise them), so the request goes over REST as novaclient's did.
    compute = local_cloud.compute(
        local_cloud.services.demo, microversion=PERSONALITY_VERSION
    )
    flavor_id = _flavor(local_cloud)

    def create(**server):
        body = {"flavorRef": flavor_id, "imageRef": image["id"], "networks": "none"}
        return compute.post("/servers", json={"server": {**body, **server}})

    motd = b"injected by personality\n"
    response = create(
        name=_unique("files"),
        config_drive=True,
        personality=[
            {"path": "/etc/motd", "contents": base64.b64encode(motd).decode()}
        ],
    )
    assert response.status_code == 202, response.text
    server_id = response.json()["server"]["id"]
    wait_for(
        lambda: (
            compute.get(f"/servers/{server_id}").json()["server"]["status"] == "ACTIVE"
        ),
        120,
        "the server to be ACTIVE",
    )
    shown = local_cloud.openstack("server", "show", server_id)
    drive = _drive_file(local_cloud, shown)
    meta = json.loads(_read(drive, "/openstack/latest/meta_data.json"))
    assert meta["files"] == [{"path": "/etc/motd", "content_path": "/content/0000"}]
    assert _read(drive, "/openstack/content/0000") == motd
    assert "admin_pass" in meta
    assert compute.delete(f"/servers/{server_id}").status_code == 204

    # [quota] injected_files is 5 by default.
    too_many = [{"path": f"/etc/f{n}", "contents": "eA=="} for n in range(6)]
    response = create(name=_unique("many"), personality=too_many)
    assert response.status_code == 403
    assert response.json()["forbidden"]["message"] == (
        "Personality file limit exceeded"
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
    assert not _drive_path(local_cloud, shown).exists()
    local_cloud.openstack(
        "server", "delete", "--wait", created["id"], cloud=demo, json_output=False
    )


def _flavor(cloud) -> str:
    """A new flavor's id (the CLI takes ids as well as names)."""
    return cloud.openstack(
        "flavor", "create", "--vcpus", "1", "--ram", "64", "--disk", "1",
        _unique("cd"),
    )["id"]  # fmt: skip
