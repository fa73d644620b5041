"""os-services: enable, disable, force down and delete, at both API styles
(actions by host and binary before 2.53, the service's uuid from 2.53)."""

import uuid

import pytest

from nova import context as nova_context
from nova import objects, placement
from tests.fixtures.compute_nodes import create_compute_node
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _cell_context(cloud, cell_name="cell1"):
    return nova_context.target_cell(
        nova_context.get_admin_context(), cloud["cells"][cell_name]
    )


@pytest.fixture
def compute(nova_conf):
    with _cell_context(nova_conf) as cctxt:
        service = objects.Service(
            cctxt, host="compute-1", binary="nova-compute", topic="compute"
        )
        service.create()
        conductor = objects.Service(
            cctxt, host="cond-1", binary="nova-conductor", topic="conductor"
        )
        conductor.create()
    return service, conductor


def _service(cloud, service_id):
    with _cell_context(cloud) as cctxt:
        return objects.Service.get_by_id(cctxt, service_id)


def test_old_actions_by_host_and_binary(api, nova_conf, compute):
    service, _ = compute
    body = {"host": "compute-1", "binary": "nova-compute"}
    response = api.put(
        "/v2.1/os-services/disable-log-reason",
        {**body, "disabled_reason": "broken fan"},
        token=ADMIN,
    )
    assert response.status_code == 200, response.text
    assert response.json()["service"] == {
        **body,
        "status": "disabled",
        "disabled_reason": "broken fan",
    }
    assert _service(nova_conf, service.id).disabled_reason == "broken fan"

    enabled = api.put("/v2.1/os-services/enable", body, token=ADMIN).json()
    assert enabled == {"service": {**body, "status": "enabled"}}
    stored = _service(nova_conf, service.id)
    assert (stored.disabled, stored.disabled_reason) == (False, None)

    # force-down exists from 2.11.
    assert fault(
        api.put("/v2.1/os-services/force-down", body, token=ADMIN, version="2.10")
    )[:2] == ("itemNotFound", 404)  # fmt: skip
    forced = api.put(
        "/v2.1/os-services/force-down",
        {**body, "forced_down": True},
        token=ADMIN,
        version="2.11",
    ).json()
    assert forced == {"service": {**body, "forced_down": True}}
    assert _service(nova_conf, service.id).forced_down is True


def test_old_action_errors(api, nova_conf, compute):
    body = {"host": "compute-1", "binary": "nova-compute"}
    assert fault(api.put("/v2.1/os-services/disable-log-reason", body, token=ADMIN))[
        :2
    ] == ("badRequest", 400)
    unknown = api.put(
        "/v2.1/os-services/disable", {**body, "host": "nowhere"}, token=ADMIN
    )
    assert fault(unknown) == (
        "itemNotFound",
        404,
        "Could not find binary nova-compute on host nowhere.",
    )
    conductor = {"host": "cond-1", "binary": "nova-conductor"}
    assert fault(api.put("/v2.1/os-services/disable", conductor, token=ADMIN))[1] == 400
    assert fault(api.put("/v2.1/os-services/reboot", body, token=ADMIN))[1] == 404
    assert (
        fault(api.put("/v2.1/os-services/enable", {"host": "x"}, token=ADMIN))[1] == 400
    )
    # Members may not touch services.
    assert fault(api.put("/v2.1/os-services/disable", body))[:2] == ("forbidden", 403)


def test_update_by_uuid_from_2_53(api, nova_conf, compute):
    service, conductor = compute
    url = f"/v2.1/os-services/{service.uuid}"
    response = api.put(
        url, {"status": "disabled", "disabled_reason": "maintenance"},
        token=ADMIN, version="2.53",
    )  # fmt: skip
    assert response.status_code == 200, response.text
    shown = response.json()["service"]
    assert shown["id"] == service.uuid
    assert (shown["status"], shown["disabled_reason"]) == ("disabled", "maintenance")
    assert shown["zone"] == "nova"
    assert _service(nova_conf, service.id).disabled is True

    shown = api.put(url, {"forced_down": True}, token=ADMIN, version="2.53").json()
    assert shown["service"]["forced_down"] is True
    assert shown["service"]["state"] == "down"

    for body, status in (
        ({}, 400),
        ({"disabled_reason": "alone"}, 400),
        ({"status": "enabled", "disabled_reason": "x"}, 400),
        ({"status": "paused"}, 400),
        ({"bogus": 1}, 400),
    ):
        assert fault(api.put(url, body, token=ADMIN, version="2.53"))[1] == status
    assert fault(
        api.put("/v2.1/os-services/not-a-uuid", {"status": "enabled"},
                token=ADMIN, version="2.53")
    ) == ("badRequest", 400, "Invalid uuid not-a-uuid")  # fmt: skip
    missing = api.put(
        f"/v2.1/os-services/{uuid.uuid4()}", {"status": "enabled"},
        token=ADMIN, version="2.53",
    )  # fmt: skip
    assert fault(missing)[1] == 404
    # Only computes are updated this way.
    assert fault(
        api.put(f"/v2.1/os-services/{conductor.uuid}", {"status": "disabled"},
                token=ADMIN, version="2.53")
    )[1] == 400  # fmt: skip


def test_delete_a_compute_removes_its_provider_and_mapping(
    api, nova_conf, flavor, compute, placement_client, monkeypatch
):
    service, _ = compute
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    with _cell_context(nova_conf) as cctxt:
        node = create_compute_node(cctxt, "compute-1", service_id=service.id)
    placement_client.create_provider(f"compute-1-{node.uuid}", uuid=node.uuid)
    context = nova_context.get_admin_context()
    objects.HostMapping(
        context, host="compute-1", cell_mapping=nova_conf["cells"]["cell1"]
    ).create()
    aggregate = objects.Aggregate(context, name="rack-1", hosts=["compute-1"])
    aggregate.create()

    # Not while it hosts a server.
    server = _in_cell(nova_conf, "cell1", host="compute-1")
    url = f"/v2.1/os-services/{service.uuid}"
    assert fault(api.delete(url, token=ADMIN, version="2.53"))[:2] == (
        "conflictingRequest",
        409,
    )
    with _cell_context(nova_conf) as cctxt:
        objects.Instance.get_by_uuid(cctxt, server.uuid).destroy()

    assert api.delete(url, token=ADMIN, version="2.53").status_code == 204
    assert placement_client.find_provider(f"compute-1-{node.uuid}") is None
    with pytest.raises(Exception, match="not mapped"):
        objects.HostMapping.get_by_host(context, "compute-1")
    assert objects.Aggregate.get_by_id(context, aggregate.id).hosts == []
    listed = api.get("/v2.1/os-services", token=ADMIN).json()["services"]
    assert [s["host"] for s in listed] == ["cond-1"]
    assert fault(api.delete(url, token=ADMIN, version="2.53"))[1] == 404


def test_delete_by_id_before_2_53(api, nova_conf, compute):
    _, conductor = compute
    assert (
        api.delete(f"/v2.1/os-services/{conductor.id}", token=ADMIN).status_code == 204
    )
    assert fault(api.delete("/v2.1/os-services/abc", token=ADMIN)) == (
        "badRequest",
        400,
        "Invalid input received: id must be an integer",
    )
    assert fault(api.delete("/v2.1/os-services/4242", token=ADMIN))[1] == 404
    assert fault(api.delete(f"/v2.1/os-services/{conductor.id}"))[1] == 403
