"""os-hosts' calls to nova-compute over real RabbitMQ: a real compute
manager (fake driver, real Placement) serves them; a driver without host
operations fails the caller with NotImplementedError, as the API needs to
answer 501; a cap below 1.7 keeps the new calls from going out."""

from __future__ import annotations

import types

import oslo_messaging
import pytest
from oslo_utils import uuidutils

from nova import context, exception, objects, placement, rpc
from nova.compute import manager as compute_manager
from nova.compute import rpcapi as compute_rpcapi
from nova.conf import CONF
from nova.placement import COMPUTE_STATUS_DISABLED
from nova.virt import driver as virt_driver

pytestmark = [pytest.mark.rabbitmq]
objects.register_all()


@pytest.fixture
def compute(make_vhost, placement_client, monkeypatch):
    """A compute manager serving topic ``compute`` as host ``hostA``, with
    one node whose provider lives in the real Placement."""
    CONF.set_override("transport_url", make_vhost("compute"))
    CONF.set_override("compute_driver", "fake.FakeDriver")
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    manager = compute_manager.ComputeManager("hostA")
    provider = placement_client.create_provider(
        f"hostA-{uuidutils.generate_uuid()[:8]}"
    )
    manager.rt.compute_nodes["hostA"] = types.SimpleNamespace(uuid=provider.uuid)
    server = rpc.get_server(
        oslo_messaging.Target(topic="compute", server="hostA"), [manager]
    )
    server.start()
    yield manager, provider.uuid
    server.stop()
    server.wait()
    placement_client.delete_provider(provider.uuid)
    rpc.cleanup()
    CONF.clear_override("compute_driver")
    CONF.clear_override("transport_url")


def test_host_operations_reach_the_driver(compute, placement_client):
    _, provider_uuid = compute
    ctxt = context.get_admin_context()
    api = compute_rpcapi.ComputeAPI()
    for action in ("startup", "shutdown", "reboot"):
        assert api.host_power_action(ctxt, "hostA", action) == action
    assert api.host_maintenance_mode(ctxt, "hostA", True) == "on_maintenance"
    assert api.host_maintenance_mode(ctxt, "hostA", False) == "off_maintenance"

    assert api.set_host_enabled(ctxt, "hostA", False) == "disabled"
    traits = placement_client.get_traits(provider_uuid).traits
    assert COMPUTE_STATUS_DISABLED in traits
    assert api.set_host_enabled(ctxt, "hostA", True) == "enabled"
    traits = placement_client.get_traits(provider_uuid).traits
    assert COMPUTE_STATUS_DISABLED not in traits


def test_driver_without_host_operations(compute):
    manager, _ = compute
    # What the libvirt driver answers: the base class's NotImplementedError.
    manager.compute.driver = virt_driver.ComputeDriver()
    ctxt = context.get_admin_context()
    api = compute_rpcapi.ComputeAPI()
    with pytest.raises(NotImplementedError):
        api.host_power_action(ctxt, "hostA", "reboot")
    with pytest.raises(NotImplementedError):
        api.host_maintenance_mode(ctxt, "hostA", True)
    with pytest.raises(NotImplementedError):
        api.set_host_enabled(ctxt, "hostA", True)


def test_cap_below_1_7_keeps_the_calls_home(compute):
    CONF.set_override("compute", "1.6", group="upgrade_levels")
    try:
        api = compute_rpcapi.ComputeAPI()
        with pytest.raises(exception.RPCPinnedToOldVersion):
            api.host_power_action(context.get_admin_context(), "hostA", "reboot")
    finally:
        CONF.clear_override("compute", group="upgrade_levels")
