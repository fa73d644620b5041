"""createImage, createBackup and rebuild over HTTP, with the real Glance.

nova-compute is a recording double here (what the API hands it is the
point); the compute side of each flow is tested in
tests/unit/compute/test_manager_images.py and end to end in
tests/integration/test_server_rebuild_images.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from nova import context as nova_context
from nova import objects
from nova.compute import api as compute
from nova.conf import CONF
from tests.functional.api.conftest import ADMIN, OTHER, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


@dataclass
class RecordingCompute:
    """nova-compute's RPC API, recording the image and rebuild casts."""

    casts: list[tuple] = field(default_factory=list)

    def snapshot_instance(self, context, instance, image_id):
        self.casts.append(("snapshot", instance.uuid, image_id))

    def backup_instance(self, context, instance, image_id, backup_type, rotation):
        self.casts.append(("backup", instance.uuid, image_id, backup_type, rotation))

    def rebuild_instance(self, context, instance, **kwargs):
        self.casts.append(("rebuild", instance.uuid, kwargs))


@pytest.fixture
def compute_rpc(monkeypatch) -> RecordingCompute:
    double = RecordingCompute()
    monkeypatch.setattr(compute.API, "_compute_rpcapi", staticmethod(lambda: double))
    return double


@pytest.fixture
def glance_session(openstack_services):
    session = openstack_services.session()
    url = openstack_services.glance_url
    created: list[str] = []

    class Glance:
        def show(self, image_id):
            response = session.get(f"{url}/v2/images/{image_id}", raise_exc=False)
            return response.json() if response.status_code == 200 else None

        def of_instance(self, instance_uuid):
            return session.get(
                f"{url}/v2/images", params={"instance_uuid": instance_uuid}
            ).json()["images"]

        def forget(self, image_id):
            created.append(image_id)

    yield Glance()
    for image_id in created:
        session.delete(f"{url}/v2/images/{image_id}", raise_exc=False)


def _server(cloud, image_id, **values):
    context = nova_context.get_admin_context()
    image = compute.API().image_api.show(context, image_id)
    return _in_cell(
        cloud,
        "cell1",
        image_ref=image_id,
        system_metadata=compute.image_system_metadata(image),
        **values,
    )


def _action(api, server, body, **kw):
    return api.post(f"/v2.1/servers/{server.uuid}/action", body, **kw)


def _refreshed(cloud, server):
    with nova_context.target_cell(
        nova_context.get_admin_context(), cloud["cells"]["cell1"]
    ) as cctxt:
        return objects.Instance.get_by_uuid(cctxt, server.uuid)


def _actions(cloud, server):
    with nova_context.target_cell(
        nova_context.get_admin_context(), cloud["cells"]["cell1"]
    ) as cctxt:
        return [
            a.action
            for a in objects.InstanceActionList.get_by_instance_uuid(cctxt, server.uuid)
        ]


# -- createImage ----------------------------------------------------------------


def test_create_image_makes_a_queued_snapshot_image(
    api, nova_conf, glance, flavor, compute_rpc, glance_session
):
    server = _server(nova_conf, glance.active)
    response = _action(
        api,
        server,
        {"createImage": {"name": "snap-1", "metadata": {"purpose": "test"}}},
        version="2.45",
    )
    assert response.status_code == 202, response.text
    assert "Location" not in response.headers
    image_id = response.json()["image_id"]
    glance_session.forget(image_id)
    image = glance_session.show(image_id)
    assert image["name"] == "snap-1"
    assert image["status"] == "queued"
    assert image["instance_uuid"] == server.uuid
    assert image["image_type"] == "snapshot"
    assert image["base_image_ref"] == glance.active
    assert image["user_id"] == "demo"
    assert image["purpose"] == "test"
    # Inherited from the server's image, as the server remembers it.
    assert image["hw_disk_bus"] == "virtio"
    assert compute_rpc.casts == [("snapshot", server.uuid, image_id)]
    assert _refreshed(nova_conf, server).task_state == "image_snapshot_pending"
    assert _actions(nova_conf, server) == ["createImage"]


def test_create_image_before_2_45_answers_with_a_location(
    api, nova_conf, glance, flavor, compute_rpc, glance_session
):
    server = _server(nova_conf, glance.active)
    response = _action(api, server, {"createImage": {"name": "snap"}}, version="2.44")
    assert response.status_code == 202
    assert response.content == b""
    location = response.headers["Location"]
    image_id = location.rsplit("/", 1)[-1]
    glance_session.forget(image_id)
    assert location.endswith(f"/images/{image_id}")
    assert glance_session.show(image_id)["instance_uuid"] == server.uuid


@pytest.mark.parametrize(
    "body",
    [
        {"createImage": {}},
        {"createImage": {"name": ""}},
        {"createImage": {"name": "x" * 256}},
        {"createImage": {"name": "ok", "metadata": {"k": 1}}},
        {"createImage": {"name": "ok", "color": "blue"}},
        {"createImage": None},
    ],
)
def test_create_image_bad_bodies_are_400_and_make_no_image(
    api, nova_conf, glance, flavor, compute_rpc, glance_session, body
):
    server = _server(nova_conf, glance.active)
    assert fault(_action(api, server, body))[:2] == ("badRequest", 400)
    assert glance_session.of_instance(server.uuid) == []
    assert compute_rpc.casts == []


def test_create_image_conflicts_and_refusals_leave_nothing(
    api, nova_conf, glance, flavor, compute_rpc, glance_session
):
    body = {"createImage": {"name": "snap"}}
    busy = _server(nova_conf, glance.active, task_state="rebooting")
    assert fault(_action(api, busy, body))[:2] == ("conflictingRequest", 409)
    failed = _server(nova_conf, glance.active, vm_state="error")
    assert fault(_action(api, failed, body))[:2] == ("conflictingRequest", 409)
    locked = _server(nova_conf, glance.active, locked=True, locked_by="owner")
    assert fault(_action(api, locked, body))[:2] == ("conflictingRequest", 409)
    other = _server(nova_conf, glance.active, project="other")
    assert fault(_action(api, other, body))[:2] == ("itemNotFound", 404)
    for server in (busy, failed, locked, other):
        assert glance_session.of_instance(server.uuid) == []
    assert compute_rpc.casts == []
    # An admin may snapshot a locked server.
    response = _action(api, locked, body, token=ADMIN, version="2.45")
    assert response.status_code == 202
    glance_session.forget(response.json()["image_id"])


def test_create_image_metadata_counts_against_the_quota(
    api, nova_conf, glance, flavor, compute_rpc, glance_session
):
    CONF.set_override("metadata_items", 1, group="quota")
    try:
        server = _server(nova_conf, glance.active)
        response = _action(
            api,
            server,
            {"createImage": {"name": "s", "metadata": {"a": "1", "b": "2"}}},
        )
        assert fault(response)[:2] == ("forbidden", 403)
        assert glance_session.of_instance(server.uuid) == []
        assert _refreshed(nova_conf, server).task_state is None
    finally:
        CONF.clear_override("metadata_items", group="quota")


# -- createBackup -----------------------------------------------------------------


def test_create_backup_makes_a_backup_image(
    api, nova_conf, glance, flavor, compute_rpc, glance_session
):
    server = _server(nova_conf, glance.active)
    body = {"createBackup": {"name": "b1", "backup_type": "daily", "rotation": 2}}
    response = _action(api, server, body, version="2.45")
    assert response.status_code == 202, response.text
    image_id = response.json()["image_id"]
    glance_session.forget(image_id)
    image = glance_session.show(image_id)
    assert (image["image_type"], image["backup_type"]) == ("backup", "daily")
    assert compute_rpc.casts == [("backup", server.uuid, image_id, "daily", 2)]
    assert _refreshed(nova_conf, server).task_state == "image_backup"
    assert _actions(nova_conf, server) == ["createBackup"]


def test_create_backup_bad_bodies(api, nova_conf, glance, flavor, compute_rpc):
    server = _server(nova_conf, glance.active)
    for body in (
        {"createBackup": {"name": "b", "backup_type": "daily"}},
        {"createBackup": {"name": "b", "backup_type": "daily", "rotation": -1}},
        {"createBackup": {"name": "b", "rotation": 1}},
    ):
        assert fault(_action(api, server, body))[:2] == ("badRequest", 400), body
    assert compute_rpc.casts == []


def test_other_project_cannot_back_up(api, nova_conf, glance, flavor, compute_rpc):
    server = _server(nova_conf, glance.active)
    body = {"createBackup": {"name": "b", "backup_type": "daily", "rotation": 1}}
    assert fault(_action(api, server, body, token=OTHER))[:2] == ("itemNotFound", 404)
