"""Real Cinder on Ceph RBD, and volumes attached through our compute API."""

from __future__ import annotations

import time

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]


def test_a_new_volume_becomes_available_on_rbd(cinder_cloud):
    cinder = cinder_cloud.cinder
    client = cinder.client(cinder_cloud.cloud.services.demo)
    began = time.monotonic()
    created = client.post("/volumes", json={"volume": {"size": 1, "name": "v1"}})
    assert created.status_code == 202, created.text
    volume = cinder.wait_volume(
        created.json()["volume"]["id"], "available", client=client
    )
    print(f"create to available: {time.monotonic() - began:.1f} s")
    assert volume["size"] == 1
    assert client.delete(f"/volumes/{volume['id']}").status_code == 202
    cinder.wait_volume(volume["id"], "deleted", client=client)


# -- os-volume_attachments through our compute API (fake driver) -------------

ACTION_TIMEOUT = 120.0


def _unique(prefix: str) -> str:
    import uuid

    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def volume_cloud(cinder_cloud):
    """The cloud, an image and a flavor, and clients of the demo user."""
    cloud = cinder_cloud.cloud
    image_file = cloud.state_dir / "volume-test-disk.raw"
    image_file.write_bytes(b"\0" * 65536)
    image = cloud.openstack(
        "image", "create", "--disk-format", "raw", "--container-format", "bare",
        "--public", "--file", str(image_file), _unique("img"),
    )  # fmt: skip
    flavor = cloud.openstack(
        "flavor", "create", "--ram", "64", "--disk", "1", _unique("f")
    )
    yield cinder_cloud, image["id"], flavor["id"]
    cloud.openstack("flavor", "delete", flavor["id"], json_output=False)
    cloud.openstack("image", "delete", image["id"], json_output=False)


class Volumes:
    """The demo user's compute API (at a microversion) and Cinder API."""

    def __init__(self, cinder_cloud, image_id: str, flavor_id: str) -> None:
        self.cloud = cinder_cloud.cloud
        self.cinder = cinder_cloud.cinder
        self.demo = self.cloud.services.demo
        self.block = self.cinder.client(self.demo)
        self.image_id = image_id
        self.flavor_id = flavor_id

    def compute(self, microversion: str = "2.89"):
        return self.cloud.compute(self.demo, microversion)

    def server(self) -> str:
        body = {
            "server": {
                "name": _unique("vs"),
                "imageRef": self.image_id,
                "flavorRef": self.flavor_id,
                "networks": "none",
            }
        }
        created = self.compute().post("/servers", json=body)
        assert created.status_code == 202, created.text
        server_id = created.json()["server"]["id"]
        self.wait_server(server_id, "ACTIVE")
        return server_id

    def wait_server(self, server_id: str, status: str) -> dict:
        from tests.fixtures.local_cloud import wait_for

        def settled():
            shown = self.compute().get(f"/servers/{server_id}").json()["server"]
            if shown["status"] == "ERROR" and status != "ERROR":
                raise AssertionError(f"server {server_id} went ERROR: {shown}")
            return shown if shown["status"] == status else None

        return wait_for(settled, ACTION_TIMEOUT, f"{server_id} {status}")

    def delete_server(self, server_id: str) -> None:
        from tests.fixtures.local_cloud import wait_for

        self.compute().delete(f"/servers/{server_id}")
        wait_for(
            lambda: self.compute().get(f"/servers/{server_id}").status_code == 404,
            ACTION_TIMEOUT,
            f"{server_id} deleted",
        )

    def volume(self, size: int = 1) -> str:
        created = self.block.post(
            "/volumes", json={"volume": {"size": size, "name": _unique("vol")}}
        )
        assert created.status_code == 202, created.text
        volume_id = created.json()["volume"]["id"]
        self.cinder.wait_volume(volume_id, "available", client=self.block)
        return volume_id

    def attach(self, server_id: str, volume_id: str, microversion="2.89", **extra):
        body = {"volumeAttachment": {"volumeId": volume_id, **extra}}
        return self.compute(microversion).post(
            f"/servers/{server_id}/os-volume_attachments", json=body
        )

    def detach(self, server_id: str, volume_id: str):
        return self.compute().delete(
            f"/servers/{server_id}/os-volume_attachments/{volume_id}"
        )

    def status(self, volume_id: str) -> str:
        response = self.block.get(f"/volumes/{volume_id}")
        return (
            "deleted"
            if response.status_code == 404
            else response.json()["volume"]["status"]
        )

    def attachments(self, volume_id: str) -> list:
        return self.block.get(f"/volumes/{volume_id}").json()["volume"]["attachments"]


@pytest.fixture(scope="module")
def volumes(volume_cloud):
    return Volumes(*volume_cloud)


def test_attach_list_show_and_detach_with_latencies(volumes):
    server_id = volumes.server()
    volume_id = volumes.volume()

    began = time.monotonic()
    attached = volumes.attach(
        server_id, volume_id, tag="data", delete_on_termination=False
    )
    assert attached.status_code == 200, attached.text
    assert attached.json()["volumeAttachment"] == {
        "id": volume_id, "serverId": server_id, "volumeId": volume_id,
        "device": "/dev/vdb", "tag": "data", "delete_on_termination": False,
    }  # fmt: skip
    volumes.cinder.wait_volume(volume_id, "in-use", client=volumes.block)
    attach_seconds = time.monotonic() - began
    (attachment,) = volumes.attachments(volume_id)
    assert attachment["server_id"] == server_id
    assert attachment["device"] == "/dev/vdb"

    base = f"/servers/{server_id}/os-volume_attachments"
    listed = volumes.compute("2.89").get(base).json()["volumeAttachments"]
    (view,) = listed
    assert "id" not in view
    assert view["volumeId"] == volume_id and view["tag"] == "data"
    assert view["attachment_id"] == attachment["attachment_id"]
    assert view["bdm_uuid"]
    old = volumes.compute("2.1").get(f"{base}/{volume_id}").json()["volumeAttachment"]
    assert old == {
        "id": volume_id,
        "volumeId": volume_id,
        "serverId": server_id,
        "device": "/dev/vdb",
    }
    shown = volumes.compute("2.79").get(f"{base}/{volume_id}").json()
    assert shown["volumeAttachment"]["delete_on_termination"] is False
    server = volumes.compute("2.3").get(f"/servers/{server_id}").json()["server"]
    assert server["os-extended-volumes:volumes_attached"] == [
        {"id": volume_id, "delete_on_termination": False}
    ]

    began = time.monotonic()
    detached = volumes.detach(server_id, volume_id)
    assert detached.status_code == 202, detached.text
    volumes.cinder.wait_volume(volume_id, "available", client=volumes.block)
    detach_seconds = time.monotonic() - began
    print(
        f"attach (POST to in-use): {attach_seconds:.2f} s; "
        f"detach (DELETE to available): {detach_seconds:.2f} s"
    )
    assert volumes.attachments(volume_id) == []
    assert volumes.compute().get(base).json()["volumeAttachments"] == []
    # Detaching it again: not attached (404).
    assert volumes.detach(server_id, volume_id).status_code == 404

    volumes.delete_server(server_id)
    volumes.block.delete(f"/volumes/{volume_id}")


def test_bad_attaches_and_detaches_get_upstreams_errors(volumes):
    server_id = volumes.server()
    other_id = volumes.server()
    volume_id = volumes.volume()
    missing = "9d2c2d5e-5bb6-4d3b-a2a4-2a64bd3bd0b1"

    assert volumes.attach(server_id, missing).status_code == 404
    assert volumes.detach(server_id, missing).status_code == 404
    bad = volumes.attach(server_id, volume_id, microversion="2.48", tag="x")
    assert bad.status_code == 400  # a tag before 2.49

    assert volumes.attach(server_id, volume_id).status_code == 200
    volumes.cinder.wait_volume(volume_id, "in-use", client=volumes.block)
    # Already on this server: 400.
    again = volumes.attach(server_id, volume_id)
    assert again.status_code == 400, again.text
    # In use by another server: Cinder refuses the reservation (400), and
    # the half-done attach (its block device mapping) is rolled back.
    in_use = volumes.attach(other_id, volume_id)
    assert in_use.status_code == 400, in_use.text
    assert (
        "volumeAttachments"
        in volumes.compute().get(f"/servers/{other_id}/os-volume_attachments").json()
    )
    assert (
        volumes.compute()
        .get(f"/servers/{other_id}/os-volume_attachments")
        .json()["volumeAttachments"]
        == []
    )
    assert len(volumes.attachments(volume_id)) == 1

    # A server in the wrong state: 409 (and a locked one for its owner).
    admin = volumes.cloud.compute(None, "2.89")
    second = volumes.volume()
    assert (
        admin.post(
            f"/servers/{other_id}/action", json={"os-resetState": {"state": "error"}}
        ).status_code
        == 202
    )
    wrong = volumes.attach(other_id, second)
    assert wrong.status_code == 409, wrong.text
    assert volumes.status(second) == "available"
    assert (
        admin.post(
            f"/servers/{other_id}/action", json={"os-resetState": {"state": "active"}}
        ).status_code
        == 202
    )
    assert (
        admin.post(f"/servers/{other_id}/action", json={"lock": None}).status_code
        == 202
    )
    assert volumes.attach(other_id, second).status_code == 409
    assert (
        admin.post(f"/servers/{other_id}/action", json={"unlock": None}).status_code
        == 202
    )

    volumes.delete_server(other_id)
    volumes.delete_server(server_id)
    volumes.cinder.wait_volume(volume_id, "available", client=volumes.block)
    for vid in (volume_id, second):
        volumes.block.delete(f"/volumes/{vid}")


def test_server_delete_detaches_and_deletes_on_termination(volumes):
    server_id = volumes.server()
    kept, dropped = volumes.volume(), volumes.volume()
    assert volumes.attach(server_id, kept).status_code == 200
    assert (
        volumes.attach(server_id, dropped, delete_on_termination=True).status_code
        == 200
    )
    for vid in (kept, dropped):
        volumes.cinder.wait_volume(vid, "in-use", client=volumes.block)
    server = volumes.compute("2.3").get(f"/servers/{server_id}").json()["server"]
    assert sorted(
        (v["id"], v["delete_on_termination"])
        for v in server["os-extended-volumes:volumes_attached"]
    ) == sorted([(kept, False), (dropped, True)])

    volumes.delete_server(server_id)
    volumes.cinder.wait_volume(kept, "available", client=volumes.block)
    assert volumes.attachments(kept) == []
    volumes.cinder.wait_volume(dropped, "deleted", client=volumes.block)
    volumes.block.delete(f"/volumes/{kept}")


def test_openstack_cli_adds_lists_and_removes_a_volume(volumes):
    cloud, demo = volumes.cloud, volumes.cloud.services.demo_cloud
    server_id = volumes.server()
    volume_id = volumes.volume()
    attach, detach = [], []
    for _ in range(3):
        began = time.monotonic()
        cloud.openstack(
            "--os-compute-api-version", "2.79", "server", "add", "volume",
            "--device", "/dev/vdc", server_id, volume_id, cloud=demo,
        )  # fmt: skip
        volumes.cinder.wait_volume(volume_id, "in-use", client=volumes.block)
        attach.append(time.monotonic() - began)
        listed = cloud.openstack("server", "volume", "list", server_id, cloud=demo)
        assert [(v["Volume ID"], v["Device"]) for v in listed] == [
            (volume_id, "/dev/vdc")
        ]
        began = time.monotonic()
        cloud.openstack(
            "server",
            "remove",
            "volume",
            server_id,
            volume_id,
            cloud=demo,
            json_output=False,
        )
        volumes.cinder.wait_volume(volume_id, "available", client=volumes.block)
        detach.append(time.monotonic() - began)
    print(
        "CLI attach (add volume to in-use): "
        + ", ".join(f"{s:.2f}" for s in attach)
        + " s; detach (remove volume to available): "
        + ", ".join(f"{s:.2f}" for s in detach)
        + " s"
    )
    volumes.delete_server(server_id)
    volumes.block.delete(f"/volumes/{volume_id}")
