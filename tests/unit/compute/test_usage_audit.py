"""The instance usage audit of one host over SQLite cell databases (no
conductor: objects hit the database directly here), and its task logs."""

import datetime

import pytest

from nova import context, exception, objects
from nova.compute import manager as compute_manager
from nova.compute import usage_audit
from nova.conf import CONF
from nova.db import engines
from nova.db.main import models

objects.register_all()

D = datetime.datetime
NOW = D(2026, 3, 10, 12)  # the last completed day: 2026-03-09
BEGIN, END = D(2026, 3, 9), D(2026, 3, 10)


@pytest.fixture
def ctxt(tmp_path):
    url = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    models.BASE.metadata.create_all(engines.get_engine(url))
    CONF.set_override("connection", url, group="database")
    CONF.set_override("instance_usage_audit_period", "day")
    yield context.get_admin_context()
    CONF.clear_override("instance_usage_audit_period")
    CONF.clear_override("connection", group="database")
    engines.dispose(url)


def _instance(ctxt, host, launched_at, terminated_at=None, deleted=False):
    instance = objects.Instance(
        ctxt,
        project_id="p1",
        user_id="u1",
        host=host,
        vm_state="active",
        launched_at=launched_at,
        terminated_at=terminated_at,
        flavor=objects.Flavor(
            id=1, flavorid="f1", name="f1", memory_mb=512, vcpus=2, root_gb=1,
            ephemeral_gb=0, swap=0, extra_specs={},
        ),
    )  # fmt: skip
    instance.create()
    if deleted:
        instance.destroy()
    return instance


def test_audit_counts_the_instances_of_the_period_once(ctxt):
    in_period = [
        _instance(ctxt, "h1", D(2026, 3, 1)),
        _instance(ctxt, "h1", D(2026, 3, 9, 10)),
        # Deleted during the period: it used resources, it is audited.
        _instance(ctxt, "h1", D(2026, 3, 1), D(2026, 3, 9, 5), deleted=True),
    ]
    _instance(ctxt, "h1", D(2026, 3, 10, 1))  # launched after the period
    _instance(ctxt, "h1", D(2026, 3, 1), D(2026, 3, 8), deleted=True)  # gone before
    _instance(ctxt, "h2", D(2026, 3, 1))  # another host's

    log = usage_audit.audit_host(ctxt, "h1", now=NOW)
    assert (log.state, log.task_items, log.errors) == ("DONE", len(in_period), 0)
    assert log.message.startswith("Instance usage audit ran for host h1, 3 instances")
    stored = objects.TaskLog.get(ctxt, usage_audit.TASK_NAME, BEGIN, END, "h1")
    assert (stored.state, stored.task_items) == ("DONE", 3)
    # Done for this period: a second run does nothing.
    assert usage_audit.audit_host(ctxt, "h1", now=NOW) is None
    assert (
        len(objects.TaskLogList.get_all(ctxt, usage_audit.TASK_NAME, BEGIN, END)) == 1
    )


def test_instances_that_fail_are_counted_as_errors(ctxt, monkeypatch):
    bad = _instance(ctxt, "h1", D(2026, 3, 1))
    _instance(ctxt, "h1", D(2026, 3, 1))
    real = usage_audit.usage_record

    def failing(instance, begin, end):
        if instance.uuid == bad.uuid:
            raise RuntimeError("no flavor")
        return real(instance, begin, end)

    monkeypatch.setattr(usage_audit, "usage_record", failing)
    log = usage_audit.audit_host(ctxt, "h1", now=NOW)
    assert (log.state, log.task_items, log.errors) == ("DONE", 2, 1)


def test_task_log_begins_once_and_ends_only_when_begun(ctxt):
    def log():
        return objects.TaskLog(
            ctxt, task_name="t", host="h1", period_beginning=BEGIN,
            period_ending=END, task_items=4, message="started",
        )  # fmt: skip

    first = log()
    first.begin_task()
    assert first.state == "RUNNING" and first.id
    with pytest.raises(exception.TaskAlreadyRunning):
        log().begin_task()
    assert objects.TaskLog.get(ctxt, "t", BEGIN, END, "h1", state="DONE") is None
    first.errors, first.message = 1, "x" * 300
    first.end_task()
    done = objects.TaskLog.get(ctxt, "t", BEGIN, END, "h1", state="DONE")
    assert (done.errors, len(done.message), done.task_items) == (1, 255, 4)
    never_begun = objects.TaskLog(
        ctxt, task_name="t", host="h2", period_beginning=BEGIN, period_ending=END,
        message="",
    )  # fmt: skip
    with pytest.raises(exception.TaskNotRunning):
        never_begun.end_task()


@pytest.mark.parametrize("enabled", [True, False])
def test_periodic_task_only_when_configured(ctxt, enabled):
    CONF.set_override("compute_driver", "fake.FakeDriver")
    CONF.set_override("instance_usage_audit", enabled)
    try:
        manager = compute_manager.ComputeManager("h1")
        names = [task.name for task in manager.periodic_tasks()]
    finally:
        CONF.clear_override("instance_usage_audit")
        CONF.clear_override("compute_driver")
    assert ("instance_usage_audit" in names) is enabled
