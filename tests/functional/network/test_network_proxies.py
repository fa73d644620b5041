"""The network proxies through our Compute API on the real Neutron of
``neutron_cloud`` (which has the router plugin: floating IPs, no L3 agent):
``os-networks``, ``os-tenant-networks``, ``os-floating-ip-pools`` and
``os-floating-ips`` up to 2.35; ``addFloatingIp`` / ``removeFloatingIp``
and ``addFixedIp`` / ``removeFixedIp`` up to 2.43; ``injectNetworkInfo``;
``resetNetwork`` and the nova-network actions gone (410).
"""

from __future__ import annotations

import uuid

import pytest

from tests.fixtures.neutron import NEUTRON_GROUP
from tests.fixtures.neutron_servers import boot, delete, unique, wait

pytestmark = [pytest.mark.mysql, pytest.mark.rabbitmq, NEUTRON_GROUP]


@pytest.fixture
def proxy(cloud):
    return cloud.compute(cloud.services.demo, microversion="2.35")


@pytest.fixture
def actions(cloud):
    """The demo user's Compute API at the last version of the actions."""
    return cloud.compute(cloud.services.demo, microversion="2.43")


@pytest.fixture
def external(networks):
    """An external network (a floating IP pool) the admin made."""
    net, subnet = networks.create(
        "172.24.40.0/24", admin=True, **{"router:external": True}
    )
    yield net, subnet


@pytest.fixture
def server(networks, compute, image, flavor):
    net, subnet = networks.create("10.50.0.0/24")
    server_id = boot(compute, image, flavor, [{"uuid": net["id"]}])
    found = wait(compute, server_id)
    assert found["status"] == "ACTIVE", found.get("fault")
    yield found, net, subnet
    if compute.get(f"/servers/{server_id}").status_code == 200:
        delete(compute, server_id)


def _addresses(compute, server_id: str) -> list[tuple[str, str]]:
    body = compute.get(f"/servers/{server_id}").json()["server"]["addresses"]
    return sorted(
        (a["addr"], a["OS-EXT-IPS:type"]) for addrs in body.values() for a in addrs
    )


def test_networks_and_pools_are_listed_up_to_2_35(cloud, networks, external, proxy):
    own, _ = networks.create("10.51.0.0/24")
    ext, _ = external
    listed = proxy.get("/os-networks")
    assert listed.status_code == 200, listed.text
    by_id = {n["id"]: n for n in listed.json()["networks"]}
    assert by_id[own["id"]]["label"] == own["name"]
    assert by_id[own["id"]]["cidr"] is None
    assert ext["id"] in by_id
    shown = proxy.get(f"/os-networks/{own['id']}").json()["network"]
    assert shown["id"] == own["id"] and shown["label"] == own["name"]
    assert proxy.get(f"/os-networks/{uuid.uuid4()}").status_code == 404
    assert proxy.get("/os-networks/bogus").status_code == 404

    tenant = proxy.get("/os-tenant-networks").json()["networks"]
    assert {"id": own["id"], "cidr": None, "label": own["name"]} in tenant
    assert proxy.get(f"/os-tenant-networks/{own['id']}").json()["network"] == {
        "id": own["id"],
        "cidr": None,
        "label": own["name"],
    }
    pools = proxy.get("/os-floating-ip-pools").json()["floating_ip_pools"]
    assert {"name": ext["name"]} in pools and {"name": own["name"]} not in pools

    # Another project's network is not seen.
    admins, _ = networks.create("10.52.0.0/24", admin=True)
    assert proxy.get(f"/os-networks/{admins['id']}").status_code == 404
    assert admins["id"] not in {
        n["id"] for n in proxy.get("/os-networks").json()["networks"]
    }

    # nova-network's actions are gone; the proxies are gone from 2.36.
    assert proxy.post("/os-networks", json={}).status_code == 410
    assert proxy.delete(f"/os-networks/{own['id']}").status_code == 410
    assert proxy.post("/os-tenant-networks", json={}).status_code == 410
    later = cloud.compute(cloud.services.demo, microversion="2.36")
    for path in ("/os-networks", "/os-tenant-networks", "/os-floating-ip-pools"):
        assert later.get(path).status_code == 404, path


def test_a_floating_ip_is_allocated_associated_and_released(
    cloud, networks, external, server, proxy, actions, compute
):
    ext, _ = external
    found, net, subnet = server
    server_id = found["id"]
    # Neutron maps a floating IP only to a subnet its router reaches.
    router = networks.client.post(
        "/routers",
        json={
            "router": {
                "name": unique("r"),
                "external_gateway_info": {"network_id": ext["id"]},
            }
        },
    )
    assert router.status_code == 201, router.text
    router_id = router.json()["router"]["id"]
    added = networks.client.put(
        f"/routers/{router_id}/add_router_interface", json={"subnet_id": subnet["id"]}
    )
    assert added.status_code == 200, added.text
    try:
        created = proxy.post("/os-floating-ips", json={"pool": ext["name"]})
        assert created.status_code == 200, created.text
        fip = created.json()["floating_ip"]
        assert fip["pool"] == ext["name"]
        assert fip["instance_id"] is None and fip["fixed_ip"] is None
        listed = proxy.get("/os-floating-ips").json()["floating_ips"]
        assert fip["id"] in [f["id"] for f in listed]

        response = actions.post(
            f"/servers/{server_id}/action",
            json={"addFloatingIp": {"address": fip["ip"]}},
        )
        assert response.status_code == 202, response.text
        (port,) = networks.ports(device_id=server_id)
        fixed = port["fixed_ips"][0]["ip_address"]
        assert _addresses(compute, server_id) == sorted(
            [(fixed, "fixed"), (fip["ip"], "floating")]
        )
        shown = proxy.get(f"/os-floating-ips/{fip['id']}").json()["floating_ip"]
        assert shown["instance_id"] == server_id and shown["fixed_ip"] == fixed

        response = actions.post(
            f"/servers/{server_id}/action",
            json={"removeFloatingIp": {"address": fip["ip"]}},
        )
        assert response.status_code == 202, response.text
        assert _addresses(compute, server_id) == [(fixed, "fixed")]
        again = actions.post(
            f"/servers/{server_id}/action",
            json={"removeFloatingIp": {"address": fip["ip"]}},
        )
        assert again.status_code == 409, again.text

        unknown = actions.post(
            f"/servers/{server_id}/action",
            json={"addFloatingIp": {"address": "172.24.40.250"}},
        )
        assert unknown.status_code == 404, unknown.text
        wrong_fixed = actions.post(
            f"/servers/{server_id}/action",
            json={"addFloatingIp": {"address": fip["ip"], "fixed_address": "10.9.9.9"}},
        )
        assert wrong_fixed.status_code == 400, wrong_fixed.text
        later = cloud.compute(cloud.services.demo, microversion="2.44")
        gone = later.post(
            f"/servers/{server_id}/action",
            json={"addFloatingIp": {"address": fip["ip"]}},
        )
        assert gone.status_code == 404, gone.text

        assert proxy.delete(f"/os-floating-ips/{fip['id']}").status_code == 202
        assert proxy.get(f"/os-floating-ips/{fip['id']}").status_code == 404
        assert proxy.delete(f"/os-floating-ips/{fip['id']}").status_code == 404
        no_pool = proxy.post("/os-floating-ips", json={"pool": "no-such-pool"})
        assert no_pool.status_code == 404, no_pool.text
    finally:
        networks.client.put(
            f"/routers/{router_id}/remove_router_interface",
            json={"subnet_id": subnet["id"]},
        )
        for leftover in networks.admin.get(
            "/floatingips", params={"floating_network_id": ext["id"]}
        ).json()["floatingips"]:
            networks.admin.delete(f"/floatingips/{leftover['id']}")
        networks.admin.delete(f"/routers/{router_id}")


def test_fixed_addresses_are_added_and_removed(cloud, networks, server, actions):
    found, net, _ = server
    server_id = found["id"]
    url = f"/servers/{server_id}/action"
    (port,) = networks.ports(device_id=server_id)
    first = port["fixed_ips"][0]["ip_address"]

    added = actions.post(url, json={"addFixedIp": {"networkId": net["id"]}})
    assert added.status_code == 202, added.text
    (port,) = networks.ports(device_id=server_id)
    both = sorted(ip["ip_address"] for ip in port["fixed_ips"])
    assert len(both) == 2 and first in both
    assert sorted(a for a, _ in _addresses(actions, server_id)) == both

    second = next(ip for ip in both if ip != first)
    removed = actions.post(url, json={"removeFixedIp": {"address": second}})
    assert removed.status_code == 202, removed.text
    (port,) = networks.ports(device_id=server_id)
    assert [ip["ip_address"] for ip in port["fixed_ips"]] == [first]
    assert [a for a, _ in _addresses(actions, server_id)] == [first]

    missing = actions.post(url, json={"removeFixedIp": {"address": "10.99.0.1"}})
    assert missing.status_code == 400, missing.text
    elsewhere = actions.post(url, json={"addFixedIp": {"networkId": str(uuid.uuid4())}})
    assert elsewhere.status_code == 400, elsewhere.text
    assert actions.post(url, json={"addFixedIp": {}}).status_code == 400
    later = cloud.compute(cloud.services.demo, microversion="2.44")
    assert (
        later.post(url, json={"addFixedIp": {"networkId": net["id"]}}).status_code
        == 404
    )


def test_inject_network_info_is_for_admins_and_reset_network_is_gone(
    cloud, server, compute
):
    found, _, _ = server
    url = f"/servers/{found['id']}/action"
    assert compute.post(url, json={"injectNetworkInfo": None}).status_code == 403
    admin = cloud.compute()
    assert admin.post(url, json={"injectNetworkInfo": None}).status_code == 202
    assert admin.post(url, json={"resetNetwork": None}).status_code == 410
