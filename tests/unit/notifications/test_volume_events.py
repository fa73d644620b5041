"""What os-volume_attachments' compute side announces: instance.volume_attach
(.start/.end, .error when the driver refuses) and instance.volume_detach,
each with the volume's id. Block storage is a double of the volume API here
(the flow against real Cinder is tests/integration/test_cinder_volumes.py)."""

# Tests take the interface tests' fixtures as arguments of those names.
# ruff: noqa: F811

from __future__ import annotations

import pytest

from nova import context, objects
from nova.virt import fake
from nova.volume import api as volume_api
from tests.fixtures import notification_samples
from tests.unit.network.test_interfaces_flow import (  # noqa: F401  (fixtures)
    active,
    compute,
    network,
)

VOLUME = "a07f71dc-8151-4e7d-a0cc-cd24a3f11113"


class Attachments:
    """The calls the compute makes of block storage, and their answers."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def attachment_update(self, context, attachment_id, connector, mountpoint=None):
        self.calls.append("attachment_update")
        return {"id": attachment_id, "connection_info": {"driver_volume_type": "rbd"}}

    def attachment_complete(self, context, attachment_id):
        self.calls.append("attachment_complete")

    def attachment_delete(self, context, attachment_id):
        self.calls.append("attachment_delete")

    def roll_detaching(self, context, volume_id):
        self.calls.append("roll_detaching")


@pytest.fixture
def volumes(monkeypatch):
    double = Attachments()
    monkeypatch.setattr(volume_api, "get_volume_api", lambda: double)
    return double


def _reserved(ctxt, instance):
    """The mapping the compute API records when it reserves the volume."""
    bdm = objects.BlockDeviceMapping(
        ctxt,
        instance_uuid=instance.uuid,
        source_type="volume",
        destination_type="volume",
        device_type="disk",
        volume_id=VOLUME,
        attachment_id="5f0e6f4c-3b0e-4d8f-9a61-2f8d7c1e9b30",
        device_name="/dev/vdb",
        delete_on_termination=False,
    )
    bdm.create()
    return bdm


def _user(instance):
    instance.reservation_id = "r-1"
    instance.display_name = instance.hostname = "web-1"
    instance.image_ref = "6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50"
    instance.save()
    return context.RequestContext(user_id="u1", project_id="p1", is_admin=True)


def test_attach_and_detach_are_announced_with_the_volume(
    compute, network, active, volumes, sent
):
    _, instance = active
    ctxt = _user(instance)
    bdm = _reserved(ctxt, instance)
    sent.refresh()
    before = len(sent)

    compute.attach_volume(ctxt, instance, bdm)
    compute.detach_volume(ctxt, instance, bdm)

    received = sent.refresh()[before:]
    assert [n["event_type"] for n in received] == [
        "instance.volume_attach.start",
        "instance.volume_attach.end",
        "instance.volume_detach.start",
        "instance.volume_detach.end",
    ]
    notification_samples.check_all(received)
    assert {n["payload"]["nova_object.data"]["volume_id"] for n in received} == {VOLUME}
    assert volumes.calls == [
        "attachment_update",
        "attachment_complete",
        "attachment_delete",
    ]


def test_an_attach_the_driver_refuses_is_announced_as_an_error(
    compute, network, active, volumes, sent, monkeypatch
):
    _, instance = active
    ctxt = _user(instance)
    bdm = _reserved(ctxt, instance)
    sent.refresh()
    before = len(sent)

    def refuse(*args, **kwargs):
        raise RuntimeError("the hypervisor said no")

    monkeypatch.setattr(fake.FakeDriver, "attach_volume", refuse)
    with pytest.raises(RuntimeError):
        compute.attach_volume(ctxt, instance, bdm)

    received = sent.refresh()[before:]
    assert [n["event_type"] for n in received] == [
        "instance.volume_attach.start",
        "instance.volume_attach.error",
    ]
    notification_samples.check_all(received)
    fault = received[1]["payload"]["nova_object.data"]["fault"]["nova_object.data"]
    assert fault["exception"] == "RuntimeError"
    # The half-done attach was given back.
    assert volumes.calls == ["attachment_update", "attachment_delete"]
