"""Horizon's launch wizard against the cloud with a real Neutron, in Chromium.

A project member logs into Horizon, launches a server through the
wizard (image, flavor, one of the project's networks), sees it Active in
the instances table with its address on that network, opens its console
in the instance's Console tab, and deletes it.
"""

from __future__ import annotations

import pytest

from tests.fixtures.local_cloud import wait_for
from tests.fixtures.neutron import NEUTRON_GROUP
from tests.fixtures.neutron_servers import unique, wait
from tests.fixtures.vnc_server import VNCServer
from tests.integration.dashboard.conftest import dashboard_for

pytestmark = [pytest.mark.rabbitmq, pytest.mark.mysql, NEUTRON_GROUP]


@pytest.fixture(scope="module")
def dashboard(cloud, tmp_path_factory):
    with dashboard_for(cloud, tmp_path_factory) as running:
        yield running


def test_a_member_launches_a_server_through_the_wizard(
    cloud, image, flavor, networks, compute, pages
):
    network, subnet = networks.create("10.91.0.0/24")
    name = unique("wizard")

    pages.login("demo", cloud.services.demo.password)
    pages.launch_instance(name, image["name"], flavor["name"], network["name"])
    row = pages.wait_for_instance(name, "Active")

    [server] = compute.get("/servers", params={"name": name}).json()["servers"]
    server = wait(compute, server["id"])
    assert server["status"] == "ACTIVE", server.get("fault")
    [address] = server["addresses"][network["name"]]
    assert address["addr"] in row[3]
    assert server["image"]["id"] == image["id"]
    assert server["flavor"]["original_name"] == flavor["name"]

    # The Console tab: noVNC, served by nova-novncproxy, in Horizon's frame,
    # reaches the guest's VNC server (where the fake compute says it is).
    vnc = VNCServer(port=cloud.vnc_port)
    try:
        assert pages.console_status(server["id"]) == "Connected to nova-test-console"
    finally:
        vnc.stop()
    assert vnc.connections == 1

    pages.instance_action(server["id"], "delete", confirm=True)
    pages.wait_for_instance(name, None)
    wait_for(
        lambda: networks.ports(device_id=server["id"]) == [],
        60,
        "the server's port to be deleted",
    )
