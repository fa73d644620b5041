"""A build waits for its ports to be plugged (``network-vif-plugged``), as
``vif_plugging_timeout`` and ``vif_plugging_is_fatal`` say. The fake driver
reports each port plugged, as Neutron would for a real hypervisor.

The network API here is a double handing out one port not yet active: the
flow against the real Neutron is tests/integration/test_neutron_networks.py.
"""

import pytest

from nova import context, objects
from nova.conf import CONF
from nova.network import model
from nova.states import vm_states
from tests.unit.compute.test_manager import (  # noqa: F401  (fixture)
    _build,
    _scheduled_instance,
    compute,
)

PORT = "5f0c2a3e-0000-4000-8000-000000000001"


class OnePortNetwork:
    """Gives each instance one inactive port; records what was given back."""

    def __init__(self) -> None:
        self.deallocated: list[str] = []

    def allocate_for_instance(self, context, instance, requested_networks, **kw):
        return model.NetworkInfo([model.VIF(id=PORT, address="fa:16:3e:00:00:01")])

    def deallocate_for_instance(self, context, instance, requested_networks=None):
        self.deallocated.append(instance.uuid)


@pytest.fixture
def network(compute):  # noqa: F811
    double = OnePortNetwork()
    compute.compute.network_api = double
    return double


@pytest.fixture
def timeout():
    CONF.set_override("vif_plugging_timeout", 1)
    yield
    CONF.clear_override("vif_plugging_timeout")
    CONF.clear_override("vif_plugging_is_fatal")


def _built(compute, placement_client):  # noqa: F811
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    _build(compute, ctxt, instance)
    return objects.Instance.get_by_uuid(ctxt, instance.uuid, expected_attrs=["fault"])


def test_the_plugged_event_lets_the_build_finish(
    compute,  # noqa: F811
    placement_client,
    network,
    timeout,
):
    built = _built(compute, placement_client)
    assert built.vm_state == vm_states.ACTIVE
    assert network.deallocated == []


def test_no_event_in_time_fails_the_build_and_gives_the_port_back(
    compute,  # noqa: F811
    placement_client,
    network,
    timeout,
):
    # A host whose ports nobody plugs: the event never comes.
    compute.driver.register_instance_event_listener(lambda event: None)
    built = _built(compute, placement_client)
    assert built.vm_state == vm_states.ERROR
    assert "Failed to allocate the network(s), not rescheduling." in (
        built.fault.message
    )
    assert network.deallocated == [built.uuid]
    assert compute.driver.list_instance_uuids() == []


def test_without_fatal_the_build_goes_on_after_the_timeout(
    compute,  # noqa: F811
    placement_client,
    network,
    timeout,
):
    CONF.set_override("vif_plugging_is_fatal", False)
    compute.driver.register_instance_event_listener(lambda event: None)
    assert _built(compute, placement_client).vm_state == vm_states.ACTIVE
