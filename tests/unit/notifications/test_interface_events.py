"""What os-interface's compute side announces: instance.interface_attach
and instance.interface_detach, .start/.end, and .error for an attach the
driver refuses (the fake driver, a double of the network API)."""

# Tests take the interface tests' fixtures as arguments of those names.
# ruff: noqa: F811

from __future__ import annotations

import pytest

from nova import context, exception
from nova.virt import fake
from tests.fixtures import notification_samples
from tests.unit.network.test_interfaces_flow import (  # noqa: F401  (fixtures)
    PORT,
    _attaching,
    _detaching,
    active,
    compute,
    network,
)


def _as_the_api_made_it(instance):
    """The instance as the compute API makes it, and a user's request."""
    instance.reservation_id = "r-1"
    instance.display_name = instance.hostname = "web-1"
    instance.image_ref = "6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50"
    instance.save()
    return context.RequestContext(user_id="u1", project_id="p1", is_admin=True)


def test_attach_and_detach_are_announced(compute, network, active, sent):
    _, instance = active
    ctxt = _as_the_api_made_it(instance)
    _attaching(ctxt, instance)
    sent.refresh()
    before = len(sent)
    compute.attach_interface(ctxt, instance, None, PORT, None)
    instance.refresh()
    _detaching(ctxt, instance)
    compute.detach_interface(ctxt, instance, PORT)

    received = sent.refresh()[before:]
    assert [n["event_type"] for n in received] == [
        "instance.interface_attach.start",
        "instance.interface_attach.end",
        "instance.interface_detach.start",
        "instance.interface_detach.end",
    ]
    notification_samples.check_all(received)
    ports = [
        ip["nova_object.data"]["port_uuid"]
        for ip in received[1]["payload"]["nova_object.data"]["ip_addresses"]
    ]
    assert ports in ([], [PORT])  # the double's port has no addresses


def test_an_attach_the_driver_refuses_is_announced_as_an_error(
    compute, network, active, sent, monkeypatch
):
    _, instance = active
    ctxt = _as_the_api_made_it(instance)
    _attaching(ctxt, instance)
    sent.refresh()
    before = len(sent)

    def refuse(*args, **kwargs):
        raise RuntimeError("the hypervisor said no")

    monkeypatch.setattr(fake.FakeDriver, "attach_interface", refuse)
    with pytest.raises(exception.InterfaceAttachFailed):
        compute.interfaces.attach_interface(ctxt, instance, None, PORT, None)

    received = sent.refresh()[before:]
    assert [n["event_type"] for n in received] == [
        "instance.interface_attach.start",
        "instance.interface_attach.error",
    ]
    notification_samples.check_all(received)
    fault = received[1]["payload"]["nova_object.data"]["fault"]["nova_object.data"]
    assert fault["exception"] == "InterfaceAttachFailed"
