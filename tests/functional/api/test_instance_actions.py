"""os-instance-actions: a server's actions and their events, per microversion."""

import datetime

import pytest
import sqlalchemy as sa

from nova import context as nova_context
from nova import objects
from nova.db import engines
from nova.db.main import models as main_models
from nova.utils import generate_hostid
from tests.functional.api.conftest import ADMIN, OTHER, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

T0 = datetime.datetime(2026, 1, 1, 12, 0, 0)


def _action(cctxt, uuid, request_id, name, minutes, fail=False):
    cctxt.request_id = request_id
    objects.InstanceAction.action_start(cctxt, uuid, name, want_result=False)
    objects.InstanceActionEvent.event_start(
        cctxt, uuid, f"compute_{name}", host="compute-1", want_result=False
    )
    objects.InstanceActionEvent.event_finish_with_failure(
        cctxt, uuid, f"compute_{name}",
        exc_val="disk full" if fail else None,
        exc_tb="Traceback: boom" if fail else None,
        want_result=False,
    )  # fmt: skip
    when = T0 + datetime.timedelta(minutes=minutes)
    with engines.transaction(cctxt.db_connection) as session:
        session.execute(
            sa.update(main_models.InstanceAction)
            .where(main_models.InstanceAction.request_id == request_id)
            .values(created_at=when, updated_at=when)
        )


@pytest.fixture
def server(nova_conf, flavor):
    instance = _in_cell(nova_conf, "cell1")
    cell = nova_conf["cells"]["cell1"]
    context = nova_context.RequestContext(user_id="demo", project_id="demo")
    with nova_context.target_cell(context, cell) as cctxt:
        _action(cctxt, instance.uuid, "req-create", "create", 0)
        _action(cctxt, instance.uuid, "req-reboot", "reboot", 10, fail=True)
        _action(cctxt, instance.uuid, "req-stop", "stop", 20)
    return instance


def test_list_newest_first(api, server):
    url = f"/v2.1/servers/{server.uuid}/os-instance-actions"
    listed = api.get(url).json()["instanceActions"]
    assert [a["request_id"] for a in listed] == ["req-stop", "req-reboot", "req-create"]
    assert listed[1] == {
        "action": "reboot",
        "instance_uuid": server.uuid,
        "request_id": "req-reboot",
        "user_id": "demo",
        "project_id": "demo",
        "start_time": listed[1]["start_time"],
        "message": "Error",
    }
    assert listed[1]["start_time"].count(".") == 1
    assert "updated_at" in api.get(url, version="2.58").json()["instanceActions"][0]


def test_paging_and_time_filters(api, server):
    url = f"/v2.1/servers/{server.uuid}/os-instance-actions"
    page = api.get(f"{url}?limit=1", version="2.58").json()
    assert [a["request_id"] for a in page["instanceActions"]] == ["req-stop"]
    assert "marker=req-stop" in page["links"][0]["href"]
    rest = api.get(f"{url}?marker=req-stop", version="2.58").json()
    assert [a["request_id"] for a in rest["instanceActions"]] == [
        "req-reboot",
        "req-create",
    ]
    since = api.get(f"{url}?changes-since=2026-01-01T12:05:00Z", version="2.58")
    assert [a["request_id"] for a in since.json()["instanceActions"]] == [
        "req-stop",
        "req-reboot",
    ]
    before = api.get(f"{url}?changes-before=2026-01-01T12:05:00Z", version="2.66")
    assert [a["request_id"] for a in before.json()["instanceActions"]] == ["req-create"]
    for query, version in (
        ("marker=nope", "2.58"),
        ("changes-before=2026-01-01T12:05:00Z", "2.58"),
        ("changes-since=yesterday", "2.58"),
        ("limit=-1", "2.58"),
        ("bogus=1", "2.58"),
        ("changes-since=2026-01-02T00:00:00Z&changes-before=2026-01-01T00:00:00Z",
         "2.66"),
    ):  # fmt: skip
        assert fault(api.get(f"{url}?{query}", version=version))[1] == 400, query
    # Unknown parameters were ignored before 2.58.
    assert api.get(f"{url}?bogus=1", version="2.57").status_code == 200


def test_show_events_per_microversion_and_role(api, server):
    url = f"/v2.1/servers/{server.uuid}/os-instance-actions/req-reboot"
    # Before 2.51 only admins see events.
    assert "events" not in api.get(url).json()["instanceAction"]
    admin_event = api.get(url, token=ADMIN).json()["instanceAction"]["events"][0]
    assert admin_event["traceback"] == "Traceback: boom"
    assert admin_event["result"] == "Error"

    [event] = api.get(url, version="2.51").json()["instanceAction"]["events"]
    assert event["event"] == "compute_reboot" and "traceback" not in event

    [event] = api.get(url, version="2.62").json()["instanceAction"]["events"]
    assert event["hostId"] == generate_hostid("compute-1", "demo")
    assert "host" not in event
    [event] = api.get(url, token=ADMIN, version="2.62").json()["instanceAction"][
        "events"
    ]
    assert event["host"] == "compute-1"

    [event] = api.get(url, version="2.84").json()["instanceAction"]["events"]
    assert "details" not in event
    [event] = api.get(url, token=ADMIN, version="2.84").json()["instanceAction"][
        "events"
    ]
    assert event["details"] == "disk full"

    missing = api.get(f"/v2.1/servers/{server.uuid}/os-instance-actions/req-x")
    assert fault(missing) == ("itemNotFound", 404, "Action req-x not found")


def test_deleted_servers_from_2_21_and_other_projects(api, nova_conf, server):
    url = f"/v2.1/servers/{server.uuid}/os-instance-actions"
    assert fault(api.get(url, token=OTHER))[:2] == ("itemNotFound", 404)
    with nova_context.target_cell(
        nova_context.get_admin_context(), nova_conf["cells"]["cell1"]
    ) as cctxt:
        objects.Instance.get_by_uuid(cctxt, server.uuid).destroy()
    assert fault(api.get(url, version="2.20"))[1] == 404
    assert len(api.get(url, version="2.21").json()["instanceActions"]) == 3
