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
