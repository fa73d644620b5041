"""The usage audit as nova-compute runs it: no database, every object call
through a real cell conductor process over RabbitMQ (the audit period's
datetimes cross RPC as strings)."""

from __future__ import annotations

import datetime

import pytest

from nova import context, objects
from nova.compute import usage_audit
from nova.conf import CONF
from nova.states import vm_states
from tests.functional.rpc.test_rpc import conductor  # noqa: F401

pytestmark = [pytest.mark.rabbitmq]
objects.register_all()


def test_audit_through_the_conductor_runs_once_per_period(conductor):  # noqa: F811
    CONF.set_override("instance_usage_audit_period", "hour")
    try:
        ctxt = context.get_admin_context()
        launched = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=1)
        objects.Instance(
            ctxt, project_id="p", user_id="u", host="c1", vm_state=vm_states.ACTIVE,
            launched_at=launched,
            flavor=objects.Flavor(
                id=1, flavorid="f", name="f", memory_mb=64, vcpus=1, root_gb=0,
                ephemeral_gb=0, swap=0, extra_specs={},
            ),
        ).create()  # fmt: skip
        log = usage_audit.audit_host(ctxt, "c1")
        assert (log.state, log.task_items, log.errors) == ("DONE", 1, 0)
        # The task log of the period is found again: nothing runs twice.
        assert usage_audit.audit_host(ctxt, "c1") is None
        logs = objects.TaskLogList.get_all(
            ctxt, usage_audit.TASK_NAME, log.period_beginning, log.period_ending
        )
        assert [(entry.host, entry.state) for entry in logs] == [("c1", "DONE")]
    finally:
        CONF.clear_override("instance_usage_audit_period")
