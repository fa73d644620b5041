"""Versioned notifications of a server's life, consumed as the rest of the
cloud consumes them: an oslo.messaging notification listener on the
``versioned_notifications`` topic of real RabbitMQ, while the server is
booted, stopped, started, snapshotted and deleted through the HTTP API, with
the superconductor, scheduler, cell conductor and computes as processes,
real Placement, real Glance and a real database."""

from __future__ import annotations

import oslo_messaging
import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova.api.openstack.compute import wsgi_app
from nova.conf import CONF
from nova.states import vm_states
from tests.fixtures import notification_samples
from tests.functional.api.conftest import Client, WSGIServer
from tests.functional.boot.deployment import configured_deployment, flavor, wait_for
from tests.functional.notifications.listener import listening

pytestmark = [pytest.mark.rabbitmq]

STATE_TIMEOUT = 60
VERSIONED_TOPIC = "versioned_notifications"
LEGACY_TOPIC = "notifications"


def _options(notification_format: str) -> dict:
    return {
        "notifications": {
            "notification_format": notification_format,
            "notify_on_state_change": "vm_state",
        },
        "oslo_messaging_notifications": {"driver": "messagingv2"},
    }


@pytest.fixture
def cloud(request, make_db_url, make_vhost, placement_endpoint, openstack_services,  # noqa: F811
          glance, tmp_path):  # fmt: skip
    """The boot tests' deployment with one compute, the daemons sending
    notifications in the format the test's parameter names, and the HTTP
    API served in this process."""
    user = openstack_services.service_users["nova"]
    glance_options = {
        "auth_type": "password",
        "region_name": openstack_services.region,
        **user.auth_kwargs(openstack_services.auth_url),
    }
    with configured_deployment(
        make_db_url,
        make_vhost,
        placement_endpoint,
        tmp_path / "deployment",
        glance=glance_options,
        common_options=_options(request.param),
    ) as deployment:
        deployment.start_all(
            [f"notify-{uuidutils.generate_uuid()[:8]}"],
            vcpus=4,
            memory_mb=4096,
            local_gb=20,
        )
        CONF.set_override("auth_strategy", "noauth2", group="api")
        # This process plays nova-api: it notifies as the daemons do.
        oslo_messaging.get_notification_transport(CONF)  # registers options
        for group, options in _options(request.param).items():
            for name, value in options.items():
                # A list option takes a list here, not the file's text.
                value = [value] if name == "driver" else value
                CONF.set_override(name, value, group=group)
        admin = nova_context.get_admin_context()
        deployment.wait_for_computes(admin)
        server = WSGIServer(wsgi_app.build_app(CONF))
        deployment.admin = admin
        deployment.project = uuidutils.generate_uuid()
        deployment.api = Client(server.url, token=f"demo:{deployment.project}")
        deployment.images = glance
        try:
            yield deployment
        finally:
            server.stop()
            CONF.clear_override("auth_strategy", group="api")
            for group, options in _options(request.param).items():
                for name in options:
                    CONF.clear_override(name, group=group)


def _settled(cloud, uuid: str, vm_state: str):
    def settled():
        cloud.assert_running()
        found = cloud.find_instance(cloud.admin, uuid)
        instance = found[1] if found else None
        if instance and instance.vm_state == vm_state and instance.task_state is None:
            return instance
        return None

    return wait_for(settled, STATE_TIMEOUT, f"{uuid} to be {vm_state}")


def _boot(cloud) -> str:
    user = nova_context.RequestContext(
        user_id="demo", project_id=cloud.project, roles=["member"], overwrite=False
    )
    [uuid] = cloud.boot(user, flavor("small", memory_mb=256), name="noisy")
    _settled(cloud, uuid, vm_states.ACTIVE)
    return uuid


def _action(cloud, uuid: str, body: dict, **kw):
    response = cloud.api.post(f"/v2.1/servers/{uuid}/action", body, **kw)
    assert response.status_code == 202, response.text
    return response


def _urls(cloud) -> list[str]:
    return [cloud.api_transport_url, cloud.cell1_transport_url]


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("cloud", ["versioned"], indirect=True)
def test_server_life_in_versioned_notifications(cloud, openstack_services):
    with listening(_urls(cloud), VERSIONED_TOPIC) as heard:
        uuid = _boot(cloud)
        heard.wait_for("instance.create.end", uuid)

        _action(cloud, uuid, {"os-stop": None})
        _settled(cloud, uuid, vm_states.STOPPED)
        heard.wait_for("instance.power_off.end", uuid)

        _action(cloud, uuid, {"os-start": None})
        _settled(cloud, uuid, vm_states.ACTIVE)
        heard.wait_for("instance.power_on.end", uuid)

        response = _action(
            cloud, uuid, {"createImage": {"name": "snap"}}, version="2.45"
        )
        image_id = response.json()["image_id"]
        snapshot_end = heard.wait_for("instance.snapshot.end", uuid)

        response = cloud.api.delete(f"/v2.1/servers/{uuid}")
        assert response.status_code == 204, response.text
        delete_end = heard.wait_for("instance.delete.end", uuid)

    assert heard.events(uuid) == [
        "instance.create.start",
        "instance.update",
        "instance.create.end",
        "instance.power_off.start",
        "instance.update",
        "instance.power_off.end",
        "instance.power_on.start",
        "instance.update",
        "instance.power_on.end",
        "instance.snapshot.start",
        "instance.snapshot.end",
        "instance.delete.start",
        "instance.delete.end",
    ]
    # Everything heard has its sample (services starting up included).
    notification_samples.check_all(heard.received)
    compute = cloud.hosts[0]
    about = heard.about(uuid)
    assert {n["publisher_id"] for n in about} == {f"nova-compute:{compute}"}
    data = snapshot_end["payload"]["nova_object.data"]
    assert data["snapshot_image_id"] == image_id
    assert data["uuid"] == uuid and data["host"] == compute
    assert data["tenant_id"] == cloud.project
    assert data["action_initiator_project"] == cloud.project
    assert data["flavor"]["nova_object.data"]["memory_mb"] == 256
    updates = [
        n["payload"]["nova_object.data"]["state_update"]["nova_object.data"]
        for n in about
        if n["event_type"] == "instance.update"
    ]
    assert [(u["old_state"], u["state"]) for u in updates] == [
        ("building", "active"),
        ("active", "stopped"),
        ("stopped", "active"),
    ]
    deleted = delete_end["payload"]["nova_object.data"]
    assert deleted["terminated_at"] and deleted["deleted_at"]
    session = openstack_services.session()
    session.delete(f"{openstack_services.glance_url}/v2/images/{image_id}")


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("cloud", ["versioned"], indirect=True)
def test_deleting_a_server_no_host_holds_is_announced_by_the_api(cloud):
    user = nova_context.RequestContext(
        user_id="demo", project_id=cloud.project, roles=["member"], overwrite=False
    )
    with listening(_urls(cloud), VERSIONED_TOPIC) as heard:
        # No host fits it: it ends in cell0, where only the API deletes it.
        [uuid] = cloud.boot(user, flavor("huge", memory_mb=10**9), name="huge")
        cloud.wait_for_states(cloud.admin, [uuid], {vm_states.ERROR})
        failed = heard.wait_for(
            "compute_task.build_instances.error", uuid, key="instance_uuid"
        )
        response = cloud.api.delete(f"/v2.1/servers/{uuid}")
        assert response.status_code == 204, response.text
        heard.wait_for("instance.delete.end", uuid)

    assert heard.events(uuid) == ["instance.delete.start", "instance.delete.end"]
    deleted = heard.about(uuid)
    notification_samples.check_all(deleted, variant="not_scheduled")
    assert {n["publisher_id"] for n in deleted} == {f"nova-api:{CONF.host}"}
    start, end = (n["payload"]["nova_object.data"] for n in deleted)
    assert (start["state"], end["state"]) == ("error", "deleted")
    # The conductor said why it is in ERROR.
    notification_samples.check(failed)
    reason = failed["payload"]["nova_object.data"]["reason"]["nova_object.data"]
    assert reason["exception"] == "NoValidHost"


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("cloud", ["unversioned"], indirect=True)
def test_unversioned_format_sends_only_legacy_notifications(cloud):
    urls = _urls(cloud)
    with (
        listening(urls, VERSIONED_TOPIC) as versioned,
        listening(urls, LEGACY_TOPIC) as legacy,
    ):
        uuid = _boot(cloud)
        legacy.wait_for("compute.instance.create.end", uuid)
        response = cloud.api.delete(f"/v2.1/servers/{uuid}")
        assert response.status_code == 204, response.text
        end = legacy.wait_for("compute.instance.delete.end", uuid)

    assert versioned.received == []
    assert legacy.events(uuid) == [
        "compute.instance.create.start",
        "compute.instance.update",
        "compute.instance.create.end",
        "compute.instance.delete.start",
        "compute.instance.delete.end",
    ]
    payload = end["payload"]
    assert payload["tenant_id"] == cloud.project
    assert payload["instance_type"] == "small"
    assert payload["state"] == vm_states.DELETED
    assert payload["terminated_at"]
