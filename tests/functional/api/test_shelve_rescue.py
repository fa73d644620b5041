"""Rescue (and the shelve family) through the HTTP API served in this
process, with the real services behind it: superconductor, scheduler, cell
conductor and computes (fake driver) as processes on real RabbitMQ vhosts,
real Placement, real Glance, a real database."""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects
from nova.api.openstack.compute import wsgi_app
from nova.conf import CONF
from nova.states import power_state, vm_states
from tests.fixtures.placement import make_client
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.api.conftest import ADMIN, Client, WSGIServer, fault
from tests.functional.boot.deployment import configured_deployment, flavor, wait_for

pytestmark = [pytest.mark.rabbitmq]

STATE_TIMEOUT = 60
HOSTS = ["shelve-host-a", "shelve-host-b"]


@pytest.fixture
def deployment(
    make_db_url,
    make_vhost,  # noqa: F811
    placement_endpoint,
    openstack_services,
    tmp_path,
    request,
):
    """The boot tests' deployment, its services also given the Glance
    credentials of the nova service user (computes upload shelved images
    and delete them); indirect parametrization sets the computes' options."""
    user = openstack_services.service_users["nova"]
    glance = {
        "auth_type": "password",
        "region_name": openstack_services.region,
        **user.auth_kwargs(openstack_services.auth_url),
    }
    with configured_deployment(
        make_db_url,
        make_vhost,
        placement_endpoint,
        tmp_path / "deployment",
        compute_options=getattr(request, "param", {}),
        glance=glance,
    ) as deployment:
        # Unique host names: Placement is shared with other tests.
        deployment.start_all(
            [f"{host}-{uuidutils.generate_uuid()[:8]}" for host in HOSTS],
            vcpus=16,
            memory_mb=8192,
            local_gb=100,
        )
        yield deployment


@pytest.fixture
def cloud(deployment, glance):
    """The API over HTTP as nova-api runs it, a demo project's client."""
    CONF.set_override("auth_strategy", "noauth2", group="api")
    admin = nova_context.get_admin_context()
    deployment.wait_for_computes(admin)
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


def _boot(cloud, name: str = "rescued") -> str:
    user = nova_context.RequestContext(
        user_id="demo", project_id=cloud.project, roles=["member"], overwrite=False
    )
    [uuid] = cloud.boot(user, flavor("small", memory_mb=256), name=name)
    _settled(cloud, uuid, vm_states.ACTIVE)
    return uuid


def _instance(cloud, uuid):
    found = cloud.find_instance(cloud.admin, uuid)
    return found[1] if found else None


def _settled(cloud, uuid: str, vm_state: str):
    """The instance once in ``vm_state`` with no task running."""
    return cloud.wait_for_settled(cloud.admin, uuid, vm_state, STATE_TIMEOUT)


def _action(cloud, uuid: str, body: dict, **kw):
    return cloud.api.post(f"/v2.1/servers/{uuid}/action", body, **kw)


def _status(cloud, uuid: str) -> str:
    return cloud.api.get(f"/v2.1/servers/{uuid}").json()["server"]["status"]


def _last_action(cloud, uuid: str) -> tuple[str, list]:
    """The newest instance action and its events, once they have all ended
    (an event is recorded before its outcome)."""

    def finished():
        cell, _ = cloud.find_instance(cloud.admin, uuid)
        with nova_context.target_cell(cloud.admin, cell) as cctxt:
            action = objects.InstanceActionList.get_by_instance_uuid(cctxt, uuid)[0]
            events = objects.InstanceActionEventList.get_by_action(cctxt, action.id)
        events = [(e.event, e.result) for e in events]
        if events and all(result for _, result in events):
            return action.action, events
        return None

    return wait_for(finished, STATE_TIMEOUT, f"the last action of {uuid} to end")


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


# -- shelve ---------------------------------------------------------------------


def _glance_image(openstack_services, image_id: str) -> dict | None:
    response = openstack_services.session().get(
        f"{openstack_services.glance_url}/v2/images/{image_id}", raise_exc=False
    )
    return response.json() if response.status_code == 200 else None


def _usages(placement_endpoint, project: str) -> dict:
    usages = make_client(placement_endpoint).get_usages(project)
    return {name: used for name, used in usages.items() if used}


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_shelve_offload_and_unshelve(cloud, openstack_services, placement_endpoint):
    uuid = _boot(cloud, name="shelved")
    assert _usages(placement_endpoint, cloud.project) == {
        "VCPU": 1,
        "MEMORY_MB": 256,
        "DISK_GB": 1,
    }

    # [DEFAULT] shelved_offload_time is 0: shelving offloads at once.
    response = _action(cloud, uuid, {"shelve": None})
    assert response.status_code == 202, response.text
    offloaded = _settled(cloud, uuid, vm_states.SHELVED_OFFLOADED)
    assert (offloaded.host, offloaded.node) == (None, None)
    assert offloaded.power_state == power_state.NOSTATE
    image_id = offloaded.system_metadata["shelved_image_id"]
    image = _glance_image(openstack_services, image_id)
    assert (image["name"], image["status"]) == ("shelved-1-shelved", "active")
    assert image["instance_uuid"] == uuid
    assert _usages(placement_endpoint, cloud.project) == {}
    assert _status(cloud, uuid) == "SHELVED_OFFLOADED"
    assert _last_action(cloud, uuid) == (
        "shelve",
        [
            ("compute_shelve_instance", "Success"),
            ("compute_shelve_offload_instance", "Success"),
        ],
    )

    # Refusals while offloaded: shelving again, offloading again.
    assert _action(cloud, uuid, {"shelve": None}).status_code == 409
    response = _action(cloud, uuid, {"shelveOffload": None}, token=ADMIN)
    assert response.status_code == 409

    # Unshelve: scheduled again through the scheduler and Placement, booted
    # from the shelved image, which then goes.
    response = _action(cloud, uuid, {"unshelve": None})
    assert response.status_code == 202, response.text
    active = _settled(cloud, uuid, vm_states.ACTIVE)
    assert active.host in cloud.hosts
    assert active.power_state == power_state.RUNNING
    assert "shelved_image_id" not in active.system_metadata
    wait_for(
        lambda: _glance_image(openstack_services, image_id) is None,
        STATE_TIMEOUT,
        "the shelved image to be deleted",
    )
    assert _usages(placement_endpoint, cloud.project) == {
        "VCPU": 1,
        "MEMORY_MB": 256,
        "DISK_GB": 1,
    }
    assert _last_action(cloud, uuid) == (
        "unshelve",
        [
            ("conductor_unshelve_instance", "Success"),
            ("compute_unshelve_instance", "Success"),
        ],
    )

    # 2.91: an admin names the host.
    other_host = next(h for h in cloud.hosts if h != active.host)
    assert _action(cloud, uuid, {"shelve": None}).status_code == 202
    _settled(cloud, uuid, vm_states.SHELVED_OFFLOADED)
    body = {"unshelve": {"host": other_host}}
    response = _action(cloud, uuid, body, version="2.91")
    assert response.status_code == 403  # unshelve_to_host is the admin's
    response = _action(cloud, uuid, body, token=ADMIN, version="2.91")
    assert response.status_code == 202, response.text
    assert _settled(cloud, uuid, vm_states.ACTIVE).host == other_host


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_delete_shelved_offloaded_deletes_its_image(
    cloud, openstack_services, placement_endpoint
):
    uuid = _boot(cloud, name="shelved-then-deleted")
    assert _action(cloud, uuid, {"shelve": None}).status_code == 202
    offloaded = _settled(cloud, uuid, vm_states.SHELVED_OFFLOADED)
    image_id = offloaded.system_metadata["shelved_image_id"]
    assert _glance_image(openstack_services, image_id)["status"] == "active"

    response = cloud.api.delete(f"/v2.1/servers/{uuid}")
    assert response.status_code == 204, response.text
    # The snapshot the shelve kept goes with its server (deleted in place:
    # an offloaded server has no host).
    assert _glance_image(openstack_services, image_id) is None
    assert cloud.find_instance(cloud.admin, uuid)[1].deleted
    assert _usages(placement_endpoint, cloud.project) == {}


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_shelve_refusals(cloud):
    uuid = _boot(cloud, name="refused")
    refusals = [
        # Not shelved.
        ({"unshelve": None}, {}, 409),
        ({"shelveOffload": None}, {"token": ADMIN}, 409),
        # shelveOffload is the admin's.
        ({"shelveOffload": None}, {}, 403),
        # Bad unshelve bodies at 2.77 and 2.91.
        ({"unshelve": {"unknown": 1}}, {"version": "2.77"}, 400),
        ({"unshelve": {"host": "h"}}, {"version": "2.77"}, 400),
        ({"unshelve": {"availability_zone": None}}, {"version": "2.77"}, 400),
        ({"unshelve": {"host": "no such host!"}}, {"version": "2.91"}, 400),
    ]
    for body, kw, status in refusals:
        response = _action(cloud, uuid, body, **kw)
        assert response.status_code == status, (body, kw, response.text)
        assert fault(response)[1] == status
    # Another project's server does not exist for its caller.
    response = _action(cloud, uuid, {"shelve": None}, token="demo:other")
    assert response.status_code == 404

    assert _action(cloud, uuid, {"shelve": None}).status_code == 202
    _settled(cloud, uuid, vm_states.SHELVED_OFFLOADED)
    # Unknown zone or host when offloaded: 400, and nothing started.
    for body in (
        {"unshelve": {"availability_zone": "no-such-zone"}},
        {"unshelve": {"host": "no-such-host"}},
    ):
        response = _action(cloud, uuid, body, token=ADMIN, version="2.91")
        assert response.status_code == 400, (body, response.text)
    instance = _instance(cloud, uuid)
    assert (instance.vm_state, instance.task_state) == (
        vm_states.SHELVED_OFFLOADED,
        None,
    )


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
def test_unshelve_with_no_host_that_fits_stays_offloaded(cloud):
    uuid = _boot(cloud, name="nowhere")
    assert _action(cloud, uuid, {"shelve": None}).status_code == 202
    _settled(cloud, uuid, vm_states.SHELVED_OFFLOADED)
    # The one host asked for is disabled: the scheduler finds none.
    host = cloud.hosts[0]
    [service] = cloud.api.get(
        f"/v2.1/os-services?host={host}&binary=nova-compute",
        token=ADMIN,
        version="2.53",
    ).json()["services"]
    response = cloud.api.put(
        f"/v2.1/os-services/{service['id']}",
        {"status": "disabled"},
        token=ADMIN,
        version="2.53",
    )
    assert response.status_code == 200, response.text

    body = {"unshelve": {"host": host}}
    response = _action(cloud, uuid, body, token=ADMIN, version="2.91")
    assert response.status_code == 202, response.text

    assert _last_action(cloud, uuid) == (
        "unshelve",
        [("conductor_unshelve_instance", "Error")],
    )
    instance = _settled(cloud, uuid, vm_states.SHELVED_OFFLOADED)
    assert instance.host is None
    assert "No valid host" in instance.fault.message
    assert "shelved_image_id" in instance.system_metadata


@pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("deployment", [{"shelved_offload_time": -1}], indirect=True)
def test_shelved_but_not_offloaded_unshelves_on_its_host(cloud, openstack_services):
    uuid = _boot(cloud, name="kept")
    host = _instance(cloud, uuid).host
    assert _action(cloud, uuid, {"shelve": None}).status_code == 202
    shelved = _settled(cloud, uuid, vm_states.SHELVED)
    assert (shelved.host, shelved.power_state) == (host, power_state.SHUTDOWN)
    image_id = shelved.system_metadata["shelved_image_id"]
    assert _status(cloud, uuid) == "SHELVED"
    # A zone or host is only for offloaded servers.
    body = {"unshelve": {"availability_zone": "nova"}}
    assert _action(cloud, uuid, body, version="2.77").status_code == 409

    assert _action(cloud, uuid, {"unshelve": None}).status_code == 202
    active = _settled(cloud, uuid, vm_states.ACTIVE)
    assert (active.host, active.power_state) == (host, power_state.RUNNING)
    assert "shelved_image_id" not in active.system_metadata
    assert _glance_image(openstack_services, image_id) is None
