"""os-instance_usage_audit_log: the task logs of every cell summed up for
the last completed audit period (before now, or before a given time)."""

import datetime
from urllib.parse import quote

import pytest

from nova import audit_period, objects
from nova import context as nova_context
from nova.compute import usage_audit
from nova.conf import CONF
from tests.functional.api.conftest import ADMIN, DEMO, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


@pytest.fixture
def audited(nova_conf, flavor):
    """Three computes in cell1 (compute-2 disabled, still counted) and a
    conductor (not counted): compute-1 audited the last day's two
    instances, compute-2 is still running its audit, compute-3 never ran."""
    CONF.set_override("instance_usage_audit_period", "day")
    cell = nova_conf["cells"]["cell1"]
    long_ago = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    for _ in range(2):
        _in_cell(nova_conf, "cell1", host="compute-1", launched_at=long_ago)
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, cell) as cctxt:
        for host, disabled in (("compute-1", False), ("compute-2", True),
                               ("compute-3", False), ("cond-1", False)):  # fmt: skip
            binary = "nova-conductor" if host == "cond-1" else "nova-compute"
            objects.Service(
                cctxt, host=host, binary=binary, topic=binary[5:], disabled=disabled
            ).create()
        usage_audit.audit_host(cctxt, "compute-1")
        begin, end = audit_period.last_completed_audit_period()
        objects.TaskLog(
            cctxt, task_name=usage_audit.TASK_NAME, host="compute-2",
            period_beginning=begin, period_ending=end, task_items=5, message="m",
        ).begin_task()  # fmt: skip
    yield begin, end
    CONF.clear_override("instance_usage_audit_period")


def test_index_sums_up_the_last_period(api, audited):
    begin, end = audited
    response = api.get("/v2.1/os-instance_usage_audit_log", token=ADMIN)
    assert response.status_code == 200, response.text
    summary = response.json()["instance_usage_audit_logs"]
    log = summary.pop("log")
    assert summary == {
        "period_beginning": str(begin),
        "period_ending": str(end),
        "num_hosts": 3,
        "num_hosts_done": 1,
        "num_hosts_running": 1,
        "num_hosts_not_run": 1,
        "hosts_not_run": ["compute-3"],
        "total_instances": 7,
        "total_errors": 0,
        "overall_status": "1 of 3 hosts done. 0 errors.",
    }
    assert log["compute-1"]["state"] == "DONE"
    assert (log["compute-1"]["instances"], log["compute-1"]["errors"]) == (2, 0)
    assert log["compute-1"]["message"].startswith("Instance usage audit ran for")
    assert log["compute-2"] == {
        "state": "RUNNING",
        "instances": 5,
        "errors": 0,
        "message": "m",
    }


def test_show_is_the_period_before_the_timestamp(api, audited):
    begin, end = audited
    # Just after the period's end: the same period.
    after_end = str(end + datetime.timedelta(seconds=1))
    same = api.get(f"/v2.1/os-instance_usage_audit_log/{quote(after_end)}", token=ADMIN)
    assert same.status_code == 200, same.text
    assert same.json()["instance_usage_audit_log"]["num_hosts_done"] == 1
    # A day earlier: a period nobody audited.
    earlier = quote(str(end - datetime.timedelta(days=1)) + ".5")
    older = api.get(f"/v2.1/os-instance_usage_audit_log/{earlier}", token=ADMIN)
    summary = older.json()["instance_usage_audit_log"]
    assert summary["period_ending"] == str(begin)
    assert (summary["num_hosts_not_run"], summary["total_instances"]) == (3, 0)
    assert summary["overall_status"] == "0 of 3 hosts done. 0 errors."
    assert summary["log"] == {}


def test_bad_timestamp_and_non_admin(api, audited):
    bad = api.get("/v2.1/os-instance_usage_audit_log/yesterday", token=ADMIN)
    assert fault(bad) == ("badRequest", 400, "Invalid timestamp for date yesterday")
    for path in ("", "/2026-01-01%2000:00:00"):
        denied = api.get(f"/v2.1/os-instance_usage_audit_log{path}", token=DEMO)
        assert fault(denied)[:2] == ("forbidden", 403)
