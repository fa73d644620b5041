"""Rescue (and the shelve family) through the HTTP API served in this
process, with the real services behind it: superconductor, scheduler, cell
conductor and computes (fake driver) as processes on real RabbitMQ vhosts,
real Placement, real Glance, a real database."""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects, rpc
from nova.api.openstack.compute import wsgi_app
from nova.compute import power_state, vm_states
from nova.conf import CONF
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.api.conftest import ADMIN, Client, WSGIServer, fault
from tests.functional.boot.deployment import wait_for
from tests.functional.boot.test_boot import (  # noqa: F401  (fixture)
    _flavor,
    _wait_for_computes,
    deployment,
)

pytestmark = [pytest.mark.rabbitmq]

STATE_TIMEOUT = 60


@pytest.fixture
def cloud(deployment, glance):  # noqa: F811
    """The API over HTTP as nova-api runs it, a demo project's client."""
    CONF.set_override("auth_strategy", "noauth2", group="api")
    admin = nova_context.get_admin_context()
    _wait_for_computes(deployment, admin)
    server = WSGIServer(wsgi_app.build_app(CONF))
    project = uuidutils.generate_uuid()
    deployment.admin = admin
    deployment.project = project
    deployment.api = Client(server.url, token=f"demo:{project}")
    deployment.images = glance
    try:
        yield deployment
    finally:
        server.stop()
        CONF.clear_override("auth_strategy", group="api")
        rpc.cleanup()


def _boot(cloud) -> str:
    user = nova_context.RequestContext(
        user_id="demo", project_id=cloud.project, roles=["member"], overwrite=False
    )
    [uuid] = cloud.boot(user, _flavor("small", memory_mb=256), name="rescued")
    _settled(cloud, uuid, vm_states.ACTIVE)
    return uuid


def _instance(cloud, uuid):
    found = cloud.find_instance(cloud.admin, uuid)
    return found[1] if found else None


def _settled(cloud, uuid: str, vm_state: str):
    """The instance once in ``vm_state`` with no task running."""

    def settled():
        cloud.assert_running()
        instance = _instance(cloud, uuid)
        if instance and instance.vm_state == vm_state and instance.task_state is None:
            return instance
        return None

    return wait_for(settled, STATE_TIMEOUT, f"{uuid} to be {vm_state}")


def _action(cloud, uuid: str, body: dict, **kw):
    return cloud.api.post(f"/v2.1/servers/{uuid}/action", body, **kw)


def _status(cloud, uuid: str) -> str:
    return cloud.api.get(f"/v2.1/servers/{uuid}").json()["server"]["status"]


def _last_action(cloud, uuid: str) -> tuple[str, list]:
    cell, _ = cloud.find_instance(cloud.admin, uuid)
    with nova_context.target_cell(cloud.admin, cell) as cctxt:
        action = objects.InstanceActionList.get_by_instance_uuid(cctxt, uuid)[0]
        events = objects.InstanceActionEventList.get_by_action(cctxt, action.id)
    return action.action, [(e.event, e.result) for e in events]


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_rescue_and_unrescue(cloud):
    uuid = _boot(cloud)

    body = {"rescue": {"rescue_image_ref": cloud.images.active}}
    response = _action(cloud, uuid, body)
    assert response.status_code == 200, response.text
    password = response.json()["adminPass"]
    assert len(password) == CONF.password_length
    rescued = _settled(cloud, uuid, vm_states.RESCUED)
    assert rescued.power_state == power_state.RUNNING
    assert _status(cloud, uuid) == "RESCUE"
    assert _last_action(cloud, uuid) == (
        "rescue",
        [("compute_rescue_instance", "Success")],
    )

    # Rescued already: 409, as is unrescuing an ACTIVE server below.
    response = _action(cloud, uuid, {"rescue": None})
    assert response.status_code == 409
    assert fault(response)[0] == "conflictingRequest"
    # Another project's server does not exist for its caller.
    response = _action(cloud, uuid, {"unrescue": None}, token="demo:other")
    assert response.status_code == 404

    response = _action(cloud, uuid, {"unrescue": None})
    assert response.status_code == 202, response.text
    _settled(cloud, uuid, vm_states.ACTIVE)
    assert _status(cloud, uuid) == "ACTIVE"
    assert _last_action(cloud, uuid)[0] == "unrescue"
    assert _action(cloud, uuid, {"unrescue": None}).status_code == 409

    # The admin's password is the one asked for; none in the answer when
    # [api] enable_instance_password is off.
    CONF.set_override("enable_instance_password", False, group="api")
    try:
        response = _action(cloud, uuid, {"rescue": {"adminPass": "chosen-pass"}})
    finally:
        CONF.clear_override("enable_instance_password", group="api")
    assert (response.status_code, response.json()) == (200, {})
    _settled(cloud, uuid, vm_states.RESCUED)


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_rescue_refusals(cloud):
    uuid = _boot(cloud)
    refusals = [
        ({"rescue": {"rescue_image_ref": "not-a-uuid"}}, 400),
        ({"rescue": {"unknown": 1}}, 400),
        ({"rescue": "now"}, 400),
        # An image Glance does not have: 400, as upstream's unsupported
        # rescue image.
        ({"rescue": {"rescue_image_ref": uuidutils.generate_uuid()}}, 400),
    ]
    for body, status in refusals:
        response = _action(cloud, uuid, body)
        assert response.status_code == status, (body, response.text)
        assert fault(response)[1] == status
    # Nothing was started.
    instance = _instance(cloud, uuid)
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)

    # A locked server: 409 for its owner, an admin may still rescue it.
    cell, _ = cloud.find_instance(cloud.admin, uuid)
    with nova_context.target_cell(cloud.admin, cell) as cctxt:
        instance = objects.Instance.get_by_uuid(cctxt, uuid)
        instance.locked = True
        instance.locked_by = "admin"
        instance.save()
    response = _action(cloud, uuid, {"rescue": None})
    assert response.status_code == 409
    assert "locked" in fault(response)[2]
    response = _action(cloud, uuid, {"rescue": None}, token=ADMIN)
    assert response.status_code == 200, response.text
    _settled(cloud, uuid, vm_states.RESCUED)
