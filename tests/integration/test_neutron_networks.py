"""Servers on networks of a real Neutron, through our Compute API.

A local cloud (real Keystone, Placement, Glance; our daemons; fake-driver
computes ``compute-1`` and ``compute-2``) with ``[neutron]`` configured and
a real Neutron (ML2/openvswitch, an OVS agent per compute host) beside it
(``neutron_cloud`` fixture). Each test makes its own networks and leaves
none behind.
"""

from __future__ import annotations

import time
import uuid

import pytest

from tests.fixtures.local_cloud import wait_for
from tests.fixtures.neutron import NEUTRON_GROUP
from tests.fixtures.neutron_cloud import COMPUTE_HOSTS
from tests.fixtures.neutron_servers import Networks
from tests.fixtures.neutron_servers import access_log as _access_log
from tests.fixtures.neutron_servers import boot as _boot
from tests.fixtures.neutron_servers import calls_since as _calls_since
from tests.fixtures.neutron_servers import create as _create
from tests.fixtures.neutron_servers import delete as _delete
from tests.fixtures.neutron_servers import unique as _unique
from tests.fixtures.neutron_servers import wait as _wait

pytestmark = [
    pytest.mark.integration,
    pytest.mark.mysql,
    pytest.mark.rabbitmq,
    NEUTRON_GROUP,
]


def test_a_server_gets_a_port_bound_to_its_host_and_shows_its_address(
    cloud, neutron, networks, compute, image, flavor
):
    net, subnet = networks.create("10.20.0.0/24")
    log = _access_log(neutron)
    with cloud.exclusive():
        offset = log.stat().st_size
        began = time.monotonic()
        server_id = _boot(compute, image, flavor, [{"uuid": net["id"]}])
        server = _wait(compute, server_id)
        boot_seconds = time.monotonic() - began
        calls = _calls_since(log, offset)
    assert server["status"] == "ACTIVE", server.get("fault")
    (port,) = networks.ports(device_id=server_id)
    host = cloud.compute().get(f"/servers/{server_id}").json()["server"]
    assert port["binding:host_id"] == host["OS-EXT-SRV-ATTR:host"]
    assert port["binding:host_id"] in COMPUTE_HOSTS
    assert port["binding:vif_type"] == "ovs"
    assert port["device_owner"] == "compute:nova"
    address = port["fixed_ips"][0]["ip_address"]
    assert port["fixed_ips"][0]["subnet_id"] == subnet["id"]
    assert server["addresses"] == {
        net["name"]: [
            {
                "version": 4,
                "addr": address,
                "OS-EXT-IPS:type": "fixed",
                "OS-EXT-IPS-MAC:mac_addr": port["mac_address"],
            }
        ]
    }
    ips = compute.get(f"/servers/{server_id}/ips").json()
    assert ips == {"addresses": {net["name"]: [{"version": 4, "addr": address}]}}
    by_network = compute.get(f"/servers/{server_id}/ips/{net['name']}")
    assert by_network.json() == {net["name"]: [{"version": 4, "addr": address}]}
    assert compute.get(f"/servers/{server_id}/ips/nowhere").status_code == 404

    # Neutron says network-changed when the port changes (and the periodic
    # heal would catch a lost event): the cache follows.
    more = [*port["fixed_ips"], {"subnet_id": subnet["id"]}]
    updated = networks.admin.put(
        f"/ports/{port['id']}", json={"port": {"fixed_ips": more}}
    )
    assert updated.status_code == 200, updated.text
    both = sorted(ip["ip_address"] for ip in updated.json()["port"]["fixed_ips"])
    assert len(both) == 2 and address in both

    def cached_addresses():
        ips = compute.get(f"/servers/{server_id}/ips").json()["addresses"]
        return sorted(ip["addr"] for ip in ips[net["name"]])

    wait_for(
        lambda: cached_addresses() == both,
        90,
        "the second address in the server's addresses",
    )
    print(
        f"\ncreate->ACTIVE with a port: {boot_seconds:.2f} s; Neutron API calls "
        f"during the boot: {len(calls)} taking {sum(s for _, s in calls):.3f} s: "
        f"{[c for c, _ in calls]}"
    )

    _delete(compute, server_id)
    assert networks.ports(device_id=server_id) == []


def test_a_fixed_ip_and_security_group_are_given_and_then_in_use(
    networks, compute, image, flavor
):
    net, _ = networks.create("10.21.0.0/24")
    group = networks.security_group()
    server_id = _boot(
        compute,
        image,
        flavor,
        [{"uuid": net["id"], "fixed_ip": "10.21.0.50"}],
        security_groups=[{"name": group["name"]}],
    )
    server = _wait(compute, server_id)
    assert server["status"] == "ACTIVE", server.get("fault")
    (port,) = networks.ports(device_id=server_id)
    assert port["fixed_ips"][0]["ip_address"] == "10.21.0.50"
    assert port["security_groups"] == [group["id"]]

    again = _create(
        compute, image, flavor, [{"uuid": net["id"], "fixed_ip": "10.21.0.50"}]
    )
    assert again.status_code == 400, again.text
    assert "10.21.0.50 is already in use" in again.json()["badRequest"]["message"]
    _delete(compute, server_id)
    assert networks.ports(device_id=server_id) == []


def test_a_users_port_is_bound_then_kept_unbound_and_in_use_meanwhile(
    networks, compute, image, flavor
):
    net, _ = networks.create("10.22.0.0/24")
    port = networks.port(net["id"])
    server_id = _boot(compute, image, flavor, [{"port": port["id"]}])
    server = _wait(compute, server_id)
    assert server["status"] == "ACTIVE", server.get("fault")
    (bound,) = networks.ports(device_id=server_id)
    assert bound["id"] == port["id"]
    assert bound["binding:vif_type"] == "ovs"

    in_use = _create(compute, image, flavor, [{"port": port["id"]}])
    assert in_use.status_code == 409, in_use.text
    assert in_use.json()["conflictingRequest"]["message"] == (
        f"Port {port['id']} is still in use."
    )
    _delete(compute, server_id)
    (kept,) = networks.ports(id=port["id"])
    assert kept["device_id"] == ""
    assert kept["binding:host_id"] == ""


def test_bad_network_requests_are_refused(networks, compute, image, flavor):
    net, _ = networks.create("10.23.0.0/24")
    missing = str(uuid.uuid4())
    response = _create(compute, image, flavor, [{"uuid": missing}])
    assert response.status_code == 400, response.text
    assert response.json()["badRequest"]["message"] == (
        f"Network {missing} could not be found."
    )
    response = _create(
        compute,
        image,
        flavor,
        [{"uuid": net["id"]}],
        security_groups=[{"name": "nope"}],
    )
    assert response.status_code == 400, response.text
    assert response.json()["badRequest"]["message"] == (
        "Security group nope not found."
    )
    response = _create(compute, image, flavor, [{"port": missing}])
    assert response.status_code == 400, response.text
    assert response.json()["badRequest"]["message"] == (
        f"Port id {missing} could not be found."
    )
    no_subnet = networks.client.post(
        "/networks", json={"network": {"name": _unique("bare")}}
    ).json()["network"]
    networks.networks.append(no_subnet["id"])
    response = _create(compute, image, flavor, [{"uuid": no_subnet["id"]}])
    assert response.status_code == 400, response.text
    assert "requires a subnet" in response.json()["badRequest"]["message"]
    # The demo project now has two networks: "auto" cannot choose.
    response = _create(compute, image, flavor, "auto")
    assert response.status_code == 409, response.text
    assert (
        "More than one possible network found"
        in (response.json()["conflictingRequest"]["message"])
    )
    assert networks.ports(network_id=net["id"]) == []


def test_a_build_failing_after_its_port_was_made_leaves_no_port(
    cloud, networks, image, flavor
):
    # A flat network on a physical network no agent maps: every host's
    # binding fails, after the port was created.
    net, _ = networks.create(
        "10.24.0.0/24",
        admin=True,
        **{
            "provider:network_type": "flat",
            "provider:physical_network": "unmapped",
        },
    )
    admin = cloud.compute()
    server_id = _boot(admin, image, flavor, [{"uuid": net["id"]}])
    server = _wait(admin, server_id)
    assert server["status"] == "ERROR"
    assert networks.ports(network_id=net["id"]) == []
    _delete(admin, server_id)


def test_a_network_without_free_addresses_fails_the_build_and_leaves_no_port(
    networks, compute, image, flavor
):
    # A /30 has one address to give once the gateway has its own.
    net, _ = networks.create("10.25.0.0/30")
    first = _boot(compute, image, flavor, [{"uuid": net["id"]}])
    assert _wait(compute, first)["status"] == "ACTIVE"
    second = _boot(compute, image, flavor, [{"uuid": net["id"]}])
    server = _wait(compute, second)
    assert server["status"] == "ERROR"
    assert [p["device_id"] for p in networks.ports(network_id=net["id"])] == [first]
    _delete(compute, second)
    _delete(compute, first)
    assert networks.ports(network_id=net["id"]) == []


def test_auto_takes_the_projects_only_network_and_none_takes_none(
    cloud, neutron, image, flavor
):
    from tests.integration.test_boot_path import _project_session

    _, credentials = _project_session(cloud, _unique("auto"))
    made = Networks(neutron, cloud.services.session(credentials))
    try:
        net, _ = made.create("10.26.0.0/24")
        compute = cloud.compute(credentials)
        auto = _boot(compute, image, flavor, "auto")
        none = _boot(compute, image, flavor, "none")
        assert _wait(compute, auto)["status"] == "ACTIVE"
        assert _wait(compute, none)["status"] == "ACTIVE"
        (port,) = made.ports(device_id=auto)
        assert port["network_id"] == net["id"]
        assert made.ports(device_id=none) == []
        _delete(compute, auto)
        _delete(compute, none)
        assert made.ports(network_id=net["id"]) == []
    finally:
        made.delete_all()
