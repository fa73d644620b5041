"""Snapshots, backups and rebuilds end to end on the fake driver: the
unmodified ``openstack`` CLI against a launched cloud (real Keystone,
Placement, Glance, MariaDB, RabbitMQ; our daemons as separate processes)."""

# Tests take test_server_power_actions' fixtures as arguments of their names.
# ruff: noqa: F811

from __future__ import annotations

import pytest

from nova.states import power_state
from tests.fixtures.local_cloud import wait_for
from tests.integration.test_server_power_actions import (  # noqa: F401  (fixtures)
    _unique,
    _wait_status,
    cloud,
    server,
)

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

IMAGE_TIMEOUT = 120


def _wait_image(cloud, image_id: str, status: str = "active") -> dict:
    def done():
        image = cloud.openstack("image", "show", image_id)
        return image if image["status"] == status else None

    return wait_for(done, IMAGE_TIMEOUT, f"image {image_id} {status}")


def test_snapshot_then_rebuild_from_it(cloud, server):
    demo = cloud.services.demo_cloud
    sid = server["id"]
    name = _unique("snap")
    cloud.openstack(
        "server", "image", "create", "--name", name, "--wait", sid,
        cloud=demo, json_output=False,
    )  # fmt: skip
    (listed,) = [
        i for i in cloud.openstack("image", "list", "--name", name, cloud=demo)
    ]
    image = _wait_image(cloud, listed["ID"])
    try:
        properties = image["properties"]
        assert properties["image_type"] == "snapshot"
        assert properties["instance_uuid"] == sid
        assert properties["base_image_ref"] in str(server["image"])
        assert image["size"] > 0
        _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
        actions = cloud.openstack("server", "event", "list", sid, cloud=demo)
        assert "createImage" in {a["Action"] for a in actions}

        # --wait prints "Complete" before the server: not JSON.
        cloud.openstack(
            "server", "rebuild", "--image", image["id"], "--wait", sid,
            cloud=demo, json_output=False,
        )  # fmt: skip
        rebuilt = _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
        assert image["id"] in str(rebuilt["image"])
        actions = cloud.openstack("server", "event", "list", sid, cloud=demo)
        assert "rebuild" in {a["Action"] for a in actions}
    finally:
        cloud.openstack("image", "delete", image["id"], json_output=False)


def test_backup_rotation(cloud, server):
    demo = cloud.services.demo_cloud
    sid = server["id"]
    made = []
    try:
        for n in range(2):
            cloud.openstack(
                "server", "backup", "create", "--name", _unique(f"bk{n}"),
                "--type", "weekly", "--rotate", "1", "--wait", sid, cloud=demo,
                json_output=False,
            )  # fmt: skip
            _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
        backups = [
            i
            for i in cloud.openstack("image", "list", "--long", cloud=demo)
            if i["Name"].startswith("bk")
        ]
        made = [i["ID"] for i in backups]

        def rotated():
            left = [cloud.openstack("image", "show", i) for i in made]
            ours = [i for i in left if i["properties"].get("instance_uuid") == sid]
            return ours if len(ours) == 1 else None

        (kept,) = wait_for(rotated, IMAGE_TIMEOUT, "backups rotated to 1")
        assert kept["properties"]["backup_type"] == "weekly"
        made = [kept["id"]]
    finally:
        for image_id in made:
            cloud.openstack("image", "delete", image_id, json_output=False)


def test_images_through_the_compute_proxy_with_openstacksdk(cloud, tmp_path):
    import openstack
    from openstack import config as sdk_config

    data = tmp_path / "proxy.raw"
    data.write_bytes(b"\0" * 4096)
    name = _unique("proxied")
    image = cloud.openstack(
        "image", "create", "--disk-format", "raw", "--container-format", "bare",
        "--property", "color=red", "--file", str(data), name,
        cloud=cloud.services.demo_cloud,
    )  # fmt: skip
    try:
        region = sdk_config.OpenStackConfig(
            config_files=[str(cloud.services.clouds_yaml)]
        ).get_one(cloud=cloud.services.demo_cloud)
        conn = openstack.connection.Connection(config=region)
        # The SDK's compute images are the Compute API's /images proxy.
        listed = {i.id: i for i in conn.compute.images(details=True)}
        assert listed[image["id"]].name == name
        assert listed[image["id"]].metadata["color"] == "red"
        assert listed[image["id"]].status == "ACTIVE"
        conn.compute.set_image_metadata(image["id"], tier="small")
        shown = conn.compute.get_image(image["id"])
        assert shown.metadata["tier"] == "small"
        conn.compute.delete_image(image["id"])
        assert image["id"] not in {i.id for i in conn.compute.images()}
    finally:
        if image["id"] in {i["ID"] for i in cloud.openstack("image", "list")}:
            cloud.openstack("image", "delete", image["id"], json_output=False)
