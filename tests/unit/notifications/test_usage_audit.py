"""instance.exists from the usage audit of a host, one per instance that
lived there during the period, in both formats."""

import datetime

import pytest

from nova import objects
from nova.compute import usage_audit
from tests.fixtures import notification_samples
from tests.unit.compute.test_usage_audit import BEGIN, NOW, ctxt  # noqa: F401

D = datetime.datetime


def _instance(ctxt, launched_at):  # noqa: F811
    instance = objects.Instance(
        ctxt, project_id="p1", user_id="u1", host="h1", node="h1",
        vm_state="active", power_state=1, launched_at=launched_at,
        reservation_id="r-1", display_name="web-1", hostname="web-1",
        image_ref="6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50",
        flavor=objects.Flavor(
            id=1, flavorid="f1", name="f1", memory_mb=512, vcpus=2, root_gb=1,
            ephemeral_gb=0, swap=0, extra_specs={},
        ),
    )  # fmt: skip
    instance.create()
    return instance


def test_audit_sends_instance_exists_per_instance(ctxt, sent):  # noqa: F811
    audited = _instance(ctxt, D(2026, 3, 1))
    _instance(ctxt, D(2026, 3, 10, 1))  # launched after the period

    usage_audit.audit_host(ctxt, "h1", now=NOW)

    assert sent.events() == ["instance.exists"]
    notification_samples.check_all(sent)
    data = sent[0]["payload"]["nova_object.data"]
    assert data["uuid"] == audited.uuid
    period = data["audit_period"]["nova_object.data"]
    assert period["audit_period_beginning"] == "2026-03-09T00:00:00Z"
    assert period["audit_period_ending"] == "2026-03-10T00:00:00Z"
    assert sent[0]["publisher_id"] == "nova-compute:h1"


@pytest.mark.parametrize("sent", ["unversioned"], indirect=True)
def test_audit_sends_the_legacy_exists(ctxt, sent):  # noqa: F811
    audited = _instance(ctxt, D(2026, 3, 1))
    usage_audit.audit_host(ctxt, "h1", now=NOW)
    [exists] = sent.refresh()
    assert exists["event_type"] == "compute.instance.exists"
    payload = exists["payload"]
    assert payload["instance_id"] == audited.uuid
    assert payload["audit_period_beginning"] == BEGIN.isoformat()
    assert (payload["memory_mb"], payload["vcpus"]) == (512, 2)
