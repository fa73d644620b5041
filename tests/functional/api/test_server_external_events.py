"""os-server-external-events: per-event answers and delivery per compute host.

The compute RPC client is a recording double here; delivery over a real
broker to a real compute is covered by the integration tests.
"""

import uuid

import pytest

from nova import policy
from nova.compute.api import base as compute_base
from nova.conf import CONF
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


class RecordingEvents:
    def __init__(self):
        self.casts = []

    def external_instance_event(self, context, instances, events, host):
        self.casts.append((host, sorted(i.uuid for i in instances), events))


@pytest.fixture
def admins_may_send_events(nova_conf, tmp_path):
    """noauth2 callers have no service role: an operator's policy.yaml lets
    admins send events instead."""
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(
        '"os_compute_api:os-server-external-events:create": "role:admin"\n'
    )
    policy.get_enforcer()  # registers the [oslo_policy] options
    CONF.set_override("policy_file", str(policy_file), group="oslo_policy")
    policy.reset()
    yield
    CONF.clear_override("policy_file", group="oslo_policy")
    policy.reset()


@pytest.fixture
def rpc(monkeypatch, admins_may_send_events):
    double = RecordingEvents()
    monkeypatch.setattr(
        compute_base.FlowAPI, "_compute_rpcapi", staticmethod(lambda: double)
    )
    return double


def _event(server_uuid, name="network-vif-plugged", **values):
    return {"name": name, "server_uuid": server_uuid, **values}


def test_events_are_answered_one_by_one_and_cast_per_host(
    api, nova_conf, flavor, rpc, monkeypatch
):
    on_1 = _in_cell(nova_conf, "cell1", host="compute-1")
    other_on_1 = _in_cell(nova_conf, "cell1", host="compute-1")
    on_2 = _in_cell(nova_conf, "cell1", host="compute-2")
    hostless = _in_cell(nova_conf, "cell1", host=None, node=None)
    unknown = str(uuid.uuid4())
    body = {
        "events": [
            _event(on_1.uuid, tag="port-1"),
            _event(other_on_1.uuid, status="failed"),
            _event(on_2.uuid, name="network-changed"),
            _event(hostless.uuid),
            _event(unknown),
        ]
    }
    response = api.post("/v2.1/os-server-external-events", body, token=ADMIN)
    assert response.status_code == 207
    answered = response.json()["events"]
    assert [(e["code"], e["status"]) for e in answered] == [
        (200, "completed"),
        (200, "failed"),
        (200, "completed"),
        (422, "failed"),
        (404, "failed"),
    ]
    assert answered[0] == {**body["events"][0], "status": "completed", "code": 200}
    casts = {host: (uuids, events) for host, uuids, events in rpc.casts}
    assert casts["compute-1"][0] == sorted([on_1.uuid, other_on_1.uuid])
    assert [e["tag"] for e in casts["compute-1"][1]] == ["port-1", None]
    assert casts["compute-2"][1][0]["name"] == "network-changed"

    all_good = api.post(
        "/v2.1/os-server-external-events",
        {"events": [_event(on_2.uuid)]},
        token=ADMIN,
    )
    assert all_good.status_code == 200


def test_none_accepted_is_a_404(api, nova_conf, rpc):
    response = api.post(
        "/v2.1/os-server-external-events",
        {"events": [_event(str(uuid.uuid4()))]},
        token=ADMIN,
    )
    assert fault(response) == (
        "itemNotFound",
        404,
        "No instances found for any event",
    )
    assert rpc.casts == []


def test_names_per_microversion_and_validation(api, nova_conf, flavor, rpc):
    server = _in_cell(nova_conf, "cell1", host="compute-1")
    url = "/v2.1/os-server-external-events"
    extended = {"events": [_event(server.uuid, name="volume-extended", tag="v")]}
    assert fault(api.post(url, extended, token=ADMIN, version="2.50"))[1] == 400
    assert api.post(url, extended, token=ADMIN, version="2.51").status_code == 200
    power = {"events": [_event(server.uuid, name="power-update", tag="sideways")]}
    answered = api.post(url, power, token=ADMIN, version="2.76")
    assert answered.status_code == 404  # the one event was refused (400)
    for body in (
        {"events": []},
        {"events": [_event("not-a-uuid")]},
        {"events": [_event(server.uuid, status="done")]},
        {"events": [{**_event(server.uuid), "extra": 1}]},
    ):
        assert fault(api.post(url, body, token=ADMIN))[1] == 400, body


def test_members_may_not_send_events(api, nova_conf, flavor, rpc):
    server = _in_cell(nova_conf, "cell1", host="compute-1")
    body = {"events": [_event(server.uuid)]}
    assert fault(api.post("/v2.1/os-server-external-events", body))[1] == 403
    assert rpc.casts == []


def test_only_services_by_default(api, nova_conf, flavor):
    server = _in_cell(nova_conf, "cell1", host="compute-1")
    body = {"events": [_event(server.uuid)]}
    response = api.post("/v2.1/os-server-external-events", body, token=ADMIN)
    assert fault(response)[:2] == ("forbidden", 403)
