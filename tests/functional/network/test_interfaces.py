"""``os-interface``: a server's ports, hot-plugged in and out through our
Compute API, on the real Neutron of ``neutron_cloud`` (fake-driver
computes whose hosts have OVS agents, so ports bind with ``vif_type=ovs``).
"""

from __future__ import annotations

import time
import uuid

import pytest

from tests.fixtures.local_cloud import wait_for
from tests.fixtures.neutron import NEUTRON_GROUP
from tests.fixtures.neutron_servers import (
    access_log,
    boot,
    calls_since,
    delete,
    wait,
)

pytestmark = [pytest.mark.mysql, pytest.mark.rabbitmq, NEUTRON_GROUP]


@pytest.fixture
def server(networks, compute, image, flavor):
    """An ACTIVE server of the demo project on a network of its own."""
    net, subnet = networks.create("10.30.0.0/24")
    server_id = boot(compute, image, flavor, [{"uuid": net["id"]}])
    found = wait(compute, server_id)
    assert found["status"] == "ACTIVE", found.get("fault")
    yield found, net
    if compute.get(f"/servers/{server_id}").status_code == 200:
        delete(compute, server_id)


def _interfaces(compute, server_id: str) -> dict[str, dict]:
    response = compute.get(f"/servers/{server_id}/os-interface")
    assert response.status_code == 200, response.text
    return {i["port_id"]: i for i in response.json()["interfaceAttachments"]}


def _addresses(compute, server_id: str) -> dict[str, list[str]]:
    addresses = compute.get(f"/servers/{server_id}").json()["server"]["addresses"]
    return {net: sorted(a["addr"] for a in addrs) for net, addrs in addresses.items()}


def _actions(compute, server_id: str) -> list[str]:
    response = compute.get(f"/servers/{server_id}/os-instance-actions")
    return [a["action"] for a in response.json()["instanceActions"]]


def test_an_interface_on_a_network_is_attached_listed_and_detached(
    cloud, neutron, networks, compute, server
):
    found, first = server
    server_id = found["id"]
    (port,) = networks.ports(device_id=server_id)
    listed = _interfaces(compute, server_id)
    assert list(listed) == [port["id"]]
    assert listed[port["id"]]["net_id"] == first["id"]
    assert listed[port["id"]]["mac_addr"] == port["mac_address"]

    second, subnet = networks.create("10.31.0.0/24")
    log = access_log(neutron)
    with cloud.exclusive():
        offset = log.stat().st_size
        began = time.monotonic()
        response = compute.post(
            f"/servers/{server_id}/os-interface",
            json={
                "interfaceAttachment": {
                    "net_id": second["id"],
                    "fixed_ips": [{"ip_address": "10.31.0.77"}],
                }
            },
        )
        seconds = time.monotonic() - began
        calls = calls_since(log, offset)
    assert response.status_code == 200, response.text
    print(
        f"\nattach of a port on a network: {seconds:.2f} s; Neutron API calls: "
        f"{len(calls)} taking {sum(s for _, s in calls):.3f} s: "
        f"{[c for c, _ in calls]}"
    )
    attached = response.json()["interfaceAttachment"]
    assert attached["net_id"] == second["id"]
    assert attached["fixed_ips"] == [
        {"subnet_id": subnet["id"], "ip_address": "10.31.0.77"}
    ]
    (new_port,) = networks.ports(device_id=server_id, network_id=second["id"])
    assert new_port["id"] == attached["port_id"]
    host = cloud.compute().get(f"/servers/{server_id}").json()["server"]
    assert new_port["binding:host_id"] == host["OS-EXT-SRV-ATTR:host"]
    assert new_port["binding:vif_type"] == "ovs"
    assert new_port["device_owner"] == "compute:nova"

    # The info cache has it at once: the server's addresses show it.
    assert _addresses(compute, server_id)[second["name"]] == ["10.31.0.77"]
    assert set(_interfaces(compute, server_id)) == {port["id"], new_port["id"]}
    shown = compute.get(f"/servers/{server_id}/os-interface/{new_port['id']}")
    assert shown.status_code == 200, shown.text
    assert shown.json()["interfaceAttachment"]["port_id"] == new_port["id"]
    assert compute.get(f"/servers/{server_id}").json()["server"]["status"] == "ACTIVE"

    detached = compute.delete(f"/servers/{server_id}/os-interface/{new_port['id']}")
    assert detached.status_code == 202, detached.text
    wait_for(
        lambda: networks.ports(device_id=server_id, network_id=second["id"]) == [],
        60,
        "the port nova made to be deleted",
    )
    wait_for(
        lambda: second["name"] not in _addresses(compute, server_id),
        60,
        "the detached network to leave the server's addresses",
    )
    assert list(_interfaces(compute, server_id)) == [port["id"]]
    actions = _actions(compute, server_id)
    assert "attach_interface" in actions and "detach_interface" in actions
    assert compute.get(f"/servers/{server_id}").json()["server"]["status"] == "ACTIVE"


def test_a_users_port_is_attached_with_a_tag_and_kept_when_detached(
    cloud, networks, server
):
    found, _ = server
    server_id = found["id"]
    other, _ = networks.create("10.32.0.0/24")
    users = networks.port(other["id"])
    compute = cloud.compute(cloud.services.demo, microversion="2.70")
    response = compute.post(
        f"/servers/{server_id}/os-interface",
        json={"interfaceAttachment": {"port_id": users["id"], "tag": "nic2"}},
    )
    assert response.status_code == 200, response.text
    assert response.json()["interfaceAttachment"]["tag"] == "nic2"
    shown = compute.get(f"/servers/{server_id}/os-interface/{users['id']}").json()
    assert shown["interfaceAttachment"]["tag"] == "nic2"
    (bound,) = networks.ports(id=users["id"])
    assert bound["device_id"] == server_id

    # Before 2.49 a tag is refused; before 2.70 none is shown.
    old = cloud.compute(cloud.services.demo, microversion="2.48")
    refused = old.post(
        f"/servers/{server_id}/os-interface",
        json={"interfaceAttachment": {"net_id": other["id"], "tag": "x"}},
    )
    assert refused.status_code == 400, refused.text
    assert (
        "tag"
        not in old.get(f"/servers/{server_id}/os-interface").json()[
            "interfaceAttachments"
        ][0]
    )

    assert (
        compute.delete(f"/servers/{server_id}/os-interface/{users['id']}").status_code
        == 202
    )

    def unbound():
        (port,) = networks.ports(id=users["id"])
        return port if not port["device_id"] else None

    port = wait_for(unbound, 60, "the user's port to be unbound")
    assert port["binding:host_id"] == ""

    # Deleting the server does not delete the port it no longer has.
    delete(compute, server_id)
    assert networks.ports(id=users["id"])


def test_bad_attaches_and_detaches_are_refused(cloud, networks, compute, server):
    found, first = server
    server_id = found["id"]
    url = f"/servers/{server_id}/os-interface"
    (port,) = networks.ports(device_id=server_id)

    def attach(**attachment):
        return compute.post(url, json={"interfaceAttachment": attachment})

    both = attach(net_id=first["id"], port_id=port["id"])
    assert both.status_code == 400, both.text
    assert "both network_id and port_id" in both.json()["badRequest"]["message"]
    ip_only = attach(fixed_ips=[{"ip_address": "10.30.0.9"}])
    assert ip_only.status_code == 400, ip_only.text
    assert attach(net_id="not-a-uuid").status_code == 400
    assert attach(net_id=str(uuid.uuid4())).status_code == 404
    assert attach(port_id=str(uuid.uuid4())).status_code == 404
    # The server's own port is in use.
    in_use = attach(port_id=port["id"])
    assert in_use.status_code == 409, in_use.text
    taken = port["fixed_ips"][0]["ip_address"]
    ip_in_use = attach(net_id=first["id"], fixed_ips=[{"ip_address": taken}])
    assert ip_in_use.status_code == 409, ip_in_use.text
    # Another project's network is not found.
    admins, _ = networks.create("10.33.0.0/24", admin=True)
    assert attach(net_id=admins["id"]).status_code == 404

    missing = str(uuid.uuid4())
    assert compute.get(f"{url}/{missing}").status_code == 404
    assert compute.delete(f"{url}/{missing}").status_code == 404
    assert compute.get(f"/servers/{uuid.uuid4()}/os-interface").status_code == 404

    # A locked server refuses its owner; an errored one refuses anyone.
    admin = cloud.compute()
    second, _ = networks.create("10.34.0.0/24")
    assert (
        admin.post(f"/servers/{server_id}/action", json={"lock": None}).status_code
        == 202
    )
    locked = attach(net_id=second["id"])
    assert locked.status_code == 409, locked.text
    assert compute.delete(f"{url}/{port['id']}").status_code == 409
    admin.post(f"/servers/{server_id}/action", json={"unlock": None})
    admin.post(
        f"/servers/{server_id}/action", json={"os-resetState": {"state": "error"}}
    )
    errored = attach(net_id=second["id"])
    assert errored.status_code == 409, errored.text
    # Nothing was left behind by the refusals.
    assert networks.ports(network_id=second["id"]) == []
    assert [p["id"] for p in networks.ports(device_id=server_id)] == [port["id"]]
