"""The compute side of os-interface (:mod:`nova.compute.flows.interfaces`)
with the fake driver and a double of the network API: what the host does
when the attach or the driver fails. The flow against the real Neutron is
tests/functional/network/test_interfaces.py.
"""

import pytest

from nova import context, exception, objects
from nova.network import model
from nova.states import task_states, vm_states
from nova.virt import fake
from tests.unit.compute.test_manager import (  # noqa: F401  (fixture)
    _build,
    _scheduled_instance,
    compute,
)

PORT = "5f0c2a3e-0000-4000-8000-000000000002"


class OneMorePort:
    """Gives each attach the port PORT; records what was given back."""

    def __init__(self) -> None:
        self.given_back: list[str] = []
        # What Neutron has, when a test says the cache is behind it.
        self.in_neutron = model.NetworkInfo()

    def allocate_for_instance(self, context, instance, requested_networks, **kw):
        return model.NetworkInfo()

    def deallocate_for_instance(self, context, instance, requested_networks=None):
        pass

    def allocate_port_for_instance(self, context, instance, **kw):
        vif = model.VIF(id=PORT, address="fa:16:3e:00:00:02")
        return vif, model.NetworkInfo([vif])

    def get_instance_nw_info(self, context, instance):
        return self.in_neutron

    def deallocate_port_for_instance(self, context, instance, port_id):
        self.given_back.append(port_id)
        return model.NetworkInfo()


@pytest.fixture
def network(compute):  # noqa: F811
    double = OneMorePort()
    compute.compute.network_api = double
    return double


@pytest.fixture
def active(compute, placement_client, network):  # noqa: F811
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    _build(compute, ctxt, instance)
    instance = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert instance.vm_state == vm_states.ACTIVE
    return ctxt, instance


def _attaching(ctxt, instance):
    instance.task_state = task_states.INTERFACE_ATTACHING
    instance.save()
    objects.InstanceAction.action_start(
        ctxt, instance.uuid, "attach_interface", want_result=False
    )


def _detaching(ctxt, instance):
    instance.task_state = task_states.INTERFACE_DETACHING
    instance.save()
    objects.InstanceAction.action_start(
        ctxt, instance.uuid, "detach_interface", want_result=False
    )


def test_an_attach_plugs_the_port_and_keeps_it_in_the_cache(
    compute,  # noqa: F811
    network,
    active,
):
    ctxt, instance = active
    _attaching(ctxt, instance)
    vif = compute.attach_interface(ctxt, instance, None, PORT, None, tag="eth1")
    # Plain JSON, which the RPC serializer can send back.
    assert type(vif) is dict and vif["id"] == PORT
    assert compute.driver._guest(instance).attached_ports == [PORT]
    cache = objects.InstanceInfoCache.get_by_instance_uuid(ctxt, instance.uuid)
    assert [v["id"] for v in cache.network_info] == [PORT]
    assert cache.network_info[0]["meta"]["tag"] == "eth1"
    after = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert after.task_state is None and after.vm_state == vm_states.ACTIVE
    assert network.given_back == []


@pytest.mark.parametrize(
    ("failure", "raised"),
    [
        (NotImplementedError(), exception.AttachInterfaceNotSupported),
        (RuntimeError("the hypervisor said no"), exception.InterfaceAttachFailed),
    ],
)
def test_a_driver_that_cannot_attach_gives_the_port_back(
    compute,  # noqa: F811
    network,
    active,
    monkeypatch,
    failure,
    raised,
):
    ctxt, instance = active
    _attaching(ctxt, instance)

    def refuse(*args, **kwargs):
        raise failure

    monkeypatch.setattr(fake.FakeDriver, "attach_interface", refuse)
    with pytest.raises(raised):
        compute.interfaces.attach_interface(ctxt, instance, None, PORT, None)
    assert network.given_back == [PORT]
    after = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert after.task_state is None and after.vm_state == vm_states.ACTIVE
    cache = objects.InstanceInfoCache.get_by_instance_uuid(ctxt, instance.uuid)
    assert not cache.network_info


def test_a_detach_unplugs_and_gives_back_a_port_the_instance_has(
    compute,  # noqa: F811
    network,
    active,
):
    ctxt, instance = active
    _attaching(ctxt, instance)
    compute.attach_interface(ctxt, instance, None, PORT, None)
    instance.refresh()
    _detaching(ctxt, instance)
    compute.detach_interface(ctxt, instance, PORT)
    assert compute.driver._guest(instance).attached_ports == []
    assert network.given_back == [PORT]
    cache = objects.InstanceInfoCache.get_by_instance_uuid(ctxt, instance.uuid)
    assert not cache.network_info
    after = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert after.task_state is None


def test_a_detach_finds_a_port_the_cache_does_not_know_yet(
    compute,  # noqa: F811
    network,
    active,
):
    ctxt, instance = active
    network.in_neutron = model.NetworkInfo(
        [model.VIF(id=PORT, address="fa:16:3e:00:00:02")]
    )
    _detaching(ctxt, instance)
    compute.detach_interface(ctxt, instance, PORT)
    assert network.given_back == [PORT]
    assert objects.Instance.get_by_uuid(ctxt, instance.uuid).task_state is None


def test_a_detach_of_a_port_the_instance_lacks_leaves_a_fault(
    compute,  # noqa: F811
    network,
    active,
):
    ctxt, instance = active
    _detaching(ctxt, instance)
    compute.detach_interface(ctxt, instance, PORT)
    after = objects.Instance.get_by_uuid(ctxt, instance.uuid, expected_attrs=["fault"])
    assert after.task_state is None and after.vm_state == vm_states.ACTIVE
    assert PORT in after.fault.message
    assert network.given_back == []
