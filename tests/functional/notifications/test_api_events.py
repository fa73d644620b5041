"""Notifications of what the Compute API changes (key pairs, flavors,
services), sent by the API served over HTTP in this process, each checked
against its sample."""

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from nova import context as nova_context
from nova import objects
from tests.fixtures import notification_samples
from tests.fixtures.notification_samples import sent  # noqa: F401  (fixture)
from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    ADMIN,
    api,
    cloud_databases,
    flavor,
    nova_conf,
)
from tests.functional.api.test_aggregates import (  # noqa: F401  (fixtures)
    compute_host,
    placement_conf,
)
from tests.functional.compute_actions.conftest import action, server

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _public_key() -> str:
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode()


def test_keypair_import_generate_and_delete(api, sent):  # noqa: F811
    body = {"keypair": {"name": "imported", "public_key": _public_key()}}
    assert api.post("/v2.1/os-keypairs", body, version="2.10").status_code == 201
    body = {"keypair": {"name": "generated"}}
    assert api.post("/v2.1/os-keypairs", body, version="2.10").status_code == 201
    assert api.delete("/v2.1/os-keypairs/imported").status_code == 202
    # A key pair that is not there: 404 and nothing announced.
    assert api.delete("/v2.1/os-keypairs/imported").status_code == 404

    assert sent.events() == [
        "keypair.import.start",
        "keypair.import.end",
        "keypair.create.start",
        "keypair.create.end",
        "keypair.delete.start",
        "keypair.delete.end",
    ]
    notification_samples.check_all(sent)
    names = [n["payload"]["nova_object.data"]["name"] for n in sent]
    assert names == ["imported"] * 2 + ["generated"] * 2 + ["imported"] * 2
    assert {n["payload"]["nova_object.data"]["user_id"] for n in sent} == {"demo"}
    assert all(n["publisher_id"].startswith("nova-api:") for n in sent)


def test_flavor_create_update_delete(api, sent):  # noqa: F811
    body = {"name": "m1.noted", "ram": 512, "vcpus": 1, "disk": 1, "id": "77"}
    response = api.post("/v2.1/flavors", {"flavor": body}, token=ADMIN)
    assert response.status_code == 200, response.text
    specs = {"extra_specs": {"hw:cpu_policy": "shared"}}
    response = api.post("/v2.1/flavors/77/os-extra_specs", specs, token=ADMIN)
    assert response.status_code == 200, response.text
    assert api.delete("/v2.1/flavors/77", token=ADMIN).status_code == 202

    assert sent.events() == ["flavor.create", "flavor.update", "flavor.delete"]
    notification_samples.check_all(sent)
    update = sent[1]["payload"]["nova_object.data"]
    assert update["flavorid"] == "77"
    assert update["extra_specs"] == {"hw:cpu_policy": "shared"}


def test_service_create_disable_heartbeat_and_delete(api, nova_conf, sent):  # noqa: F811
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, nova_conf["cells"]["cell1"]) as cctxt:
        service = objects.Service(
            cctxt, host="compute-n", binary="nova-compute", topic="compute"
        )
        service.create()
        # A heartbeat is not news.
        service.report_count = 1
        service.save()
    body = {"host": "compute-n", "binary": "nova-compute", "disabled_reason": "fan"}
    response = api.put("/v2.1/os-services/disable-log-reason", body, token=ADMIN)
    assert response.status_code == 200, response.text

    with nova_context.target_cell(context, nova_conf["cells"]["cell1"]) as cctxt:
        service.destroy()

    assert sent.events() == ["service.create", "service.update", "service.delete"]
    notification_samples.check_all(sent)
    assert {n["publisher_id"] for n in sent} == {"nova-compute:compute-n"}
    update = sent[1]["payload"]["nova_object.data"]
    assert (update["disabled"], update["disabled_reason"]) == (True, "fan")
    assert update["uuid"] == service.uuid


def test_lock_and_unlock(api, nova_conf, flavor, sent):  # noqa: F811
    instance = server(
        nova_conf,
        display_name="locked",
        hostname="locked",
        reservation_id="r-1",
        image_ref="6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50",
    )
    body = {"lock": {"locked_reason": "audit"}}
    assert action(api, instance.uuid, body, version="2.73").status_code == 202
    assert action(api, instance.uuid, {"unlock": None}).status_code == 202

    assert sent.events() == ["instance.lock", "instance.unlock"]
    notification_samples.check_all(sent)
    lock, unlock = (n["payload"]["nova_object.data"] for n in sent)
    assert (lock["uuid"], lock["locked_reason"]) == (instance.uuid, "audit")
    assert unlock["locked_reason"] is None
    assert all(n["publisher_id"].startswith("nova-api:") for n in sent)


def test_server_group_create_add_member_delete(api, nova_conf, sent):  # noqa: F811
    body = {
        "server_group": {
            "name": "web-group",
            "policy": "anti-affinity",
            "rules": {"max_server_per_host": 1},
        }
    }
    response = api.post("/v2.1/os-server-groups", body, version="2.64")
    assert response.status_code == 200, response.text
    group_id = response.json()["server_group"]["id"]
    member = "0c4b5cbe-2f40-4a8e-9d55-8a1c3c1fd2f7"
    context = nova_context.get_admin_context()
    objects.InstanceGroup.add_members(context, group_id, [member])
    # Already a member: no news.
    objects.InstanceGroup.add_members(context, group_id, [member])
    assert api.delete(f"/v2.1/os-server-groups/{group_id}").status_code == 204

    assert sent.events() == [
        "server_group.create",
        "server_group.add_member",
        "server_group.delete",
    ]
    notification_samples.check_all(sent)
    added = sent[1]["payload"]["nova_object.data"]
    assert (added["uuid"], added["members"]) == (group_id, [member])
    assert (added["policy"], added["policies"]) == ("anti-affinity", ["anti-affinity"])
    assert added["rules"] == {"max_server_per_host": "1"}


def test_aggregate_actions_announce_start_and_end(api, sent):  # noqa: F811
    body = {"aggregate": {"name": "my-aggregate", "availability_zone": "az-1"}}
    response = api.post("/v2.1/os-aggregates", body, token=ADMIN)
    assert response.status_code == 200, response.text
    aggregate_id = response.json()["aggregate"]["id"]
    url = f"/v2.1/os-aggregates/{aggregate_id}"
    metadata = {"set_metadata": {"metadata": {"ssd": "true"}}}
    assert api.post(f"{url}/action", metadata, token=ADMIN).status_code == 200
    renamed = {"aggregate": {"name": "renamed"}}
    assert api.put(url, renamed, token=ADMIN).status_code == 200
    assert api.delete(url, token=ADMIN).status_code == 200

    assert sent.events() == [
        f"aggregate.{action}.{phase}"
        for action in ("create", "update_metadata", "update_prop", "delete")
        for phase in ("start", "end")
    ]
    notification_samples.check_all(sent)
    create_start, create_end = (n["payload"]["nova_object.data"] for n in sent[:2])
    assert create_start["id"] is None and isinstance(create_end["id"], int)
    assert create_start["uuid"] == create_end["uuid"]
    assert sent[3]["payload"]["nova_object.data"]["metadata"] == {
        "availability_zone": "az-1",
        "ssd": "true",
    }
    assert sent[5]["payload"]["nova_object.data"]["name"] == "renamed"


def test_aggregate_add_and_remove_host(api, compute_host, sent):  # noqa: F811
    host, _ = compute_host
    body = {"aggregate": {"name": "hosts"}}
    aggregate_id = api.post("/v2.1/os-aggregates", body, token=ADMIN).json()[
        "aggregate"
    ]["id"]
    url = f"/v2.1/os-aggregates/{aggregate_id}/action"
    for action_name in ("add_host", "remove_host"):
        body = {action_name: {"host": host}}
        assert api.post(url, body, token=ADMIN).status_code == 200

    assert sent.events()[2:] == [
        "aggregate.add_host.start",
        "aggregate.add_host.end",
        "aggregate.remove_host.start",
        "aggregate.remove_host.end",
    ]
    notification_samples.check_all(sent)
    hosts = [n["payload"]["nova_object.data"]["hosts"] for n in sent[2:]]
    assert hosts == [[], [host], [host], []]
