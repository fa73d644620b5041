"""The real Neutron of the tests (started with the ``neutron_cloud``
fixture, whose computes its OVS agents serve) binds ports to agent hosts."""

from __future__ import annotations

import uuid

import pytest

from tests.fixtures.neutron import NEUTRON_GROUP

pytestmark = [pytest.mark.mysql, pytest.mark.rabbitmq, NEUTRON_GROUP]


@pytest.fixture(scope="module")
def neutron(neutron_cloud):
    return neutron_cloud.neutron


def _create(client, kind: str, **body):
    response = client.post(f"/{kind}s", json={kind: body})
    assert response.status_code == 201, response.text
    return response.json()[kind]


@pytest.fixture
def network(neutron):
    client = neutron.client()
    net = _create(client, "network", name=f"net-{uuid.uuid4().hex[:8]}")
    subnet = _create(
        client,
        "subnet",
        network_id=net["id"],
        cidr="10.9.0.0/24",
        ip_version=4,
        enable_dhcp=False,
    )
    yield net, subnet
    for port in client.get("/ports", params={"network_id": net["id"]}).json()["ports"]:
        client.delete(f"/ports/{port['id']}")
    client.delete(f"/networks/{net['id']}")


def test_a_port_binds_to_an_agent_host_with_vif_type_ovs(neutron, network):
    net, subnet = network
    client = neutron.client()
    host = neutron.agent_hosts[0]
    port = _create(client, "port", network_id=net["id"], **{"binding:host_id": host})
    assert port["binding:vif_type"] == "ovs"
    details = port["binding:vif_details"]
    assert details["bridge_name"] == neutron.bridges[host]
    assert details["datapath_type"] == "netdev"
    assert port["fixed_ips"][0]["subnet_id"] == subnet["id"]


def test_a_port_on_a_host_without_agent_fails_to_bind(neutron, network):
    net, _ = network
    port = _create(
        neutron.client(),
        "port",
        network_id=net["id"],
        **{"binding:host_id": "no-agent-here"},
    )
    assert port["binding:vif_type"] == "binding_failed"


def test_a_dhcp_subnet_gets_an_active_dhcp_port(neutron):
    from tests.fixtures.local_cloud import wait_for

    client = neutron.client()
    net = _create(client, "network", name=f"dhcp-{uuid.uuid4().hex[:8]}")
    try:
        _create(
            client,
            "subnet",
            network_id=net["id"],
            cidr="10.19.0.0/24",
            ip_version=4,
            enable_dhcp=True,
        )

        def dhcp_port():
            ports = client.get(
                "/ports",
                params={"network_id": net["id"], "device_owner": "network:dhcp"},
            ).json()["ports"]
            return ports[0] if ports and ports[0]["status"] == "ACTIVE" else None

        port = wait_for(dhcp_port, 120, "an active DHCP port")
        assert port["binding:host_id"] == neutron.agent_hosts[0]
        assert port["binding:vif_type"] == "ovs"
    finally:
        for port in client.get("/ports", params={"network_id": net["id"]}).json()[
            "ports"
        ]:
            client.delete(f"/ports/{port['id']}")
        client.delete(f"/networks/{net['id']}")
