"""The network info cache follows the network service: on Neutron's
``network-changed`` and, one instance per period, by the periodic heal.

The network API is a double whose ports tests change; the flow against the
real Neutron is tests/integration/test_neutron_networks.py.
"""

import pytest

from nova import context, objects
from nova.network import model
from tests.unit.compute.test_manager import (  # noqa: F401  (fixture)
    _build,
    _scheduled_instance,
    compute,
)


class ChangingNetwork:
    """The instance's ports are whatever ``vifs`` holds now."""

    def __init__(self) -> None:
        self.vifs = [model.VIF(id="p1", address="fa:16:3e:00:00:01", active=True)]

    def allocate_for_instance(self, context, instance, requested_networks, **kw):
        return model.NetworkInfo(self.vifs)

    def get_instance_nw_info(self, context, instance):
        return model.NetworkInfo(self.vifs)

    def deallocate_for_instance(self, context, instance, requested_networks=None):
        pass


@pytest.fixture
def network(compute):  # noqa: F811
    double = ChangingNetwork()
    compute.compute.network_api = double
    return double


def _cached_ports(ctxt, uuid):
    instance = objects.Instance.get_by_uuid(ctxt, uuid)
    return [vif["id"] for vif in instance.info_cache.network_info]


def test_network_changed_and_the_heal_refresh_the_cache(
    compute,  # noqa: F811
    placement_client,
    network,
):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    _build(compute, ctxt, instance)
    assert _cached_ports(ctxt, instance.uuid) == ["p1"]

    network.vifs = [*network.vifs, model.VIF(id="p2", active=True)]
    event = {"name": "network-changed", "tag": "p2", "instance_uuid": instance.uuid}
    compute.external_instance_event(
        ctxt, [objects.Instance.get_by_uuid(ctxt, instance.uuid)], [event]
    )
    assert _cached_ports(ctxt, instance.uuid) == ["p1", "p2"]

    network.vifs = network.vifs[1:]
    compute.events.heal_instance_info_cache(ctxt)
    assert _cached_ports(ctxt, instance.uuid) == ["p2"]
