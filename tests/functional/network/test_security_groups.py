"""Security groups through our Compute API on the real Neutron of
``neutron_cloud``: a server's groups and the add/remove actions (which
change its ports), and the proxy API (up to 2.35) of Neutron's groups and
rules.
"""

from __future__ import annotations

import uuid

import pytest

from tests.fixtures.neutron import NEUTRON_GROUP
from tests.fixtures.neutron_servers import boot, delete, unique, wait

pytestmark = [pytest.mark.mysql, pytest.mark.rabbitmq, NEUTRON_GROUP]

PROXY = "2.35"


@pytest.fixture
def proxy(cloud):
    """The demo user's Compute API at the last version with the proxies."""
    return cloud.compute(cloud.services.demo, microversion=PROXY)


def _action(compute, server_id: str, name: str, group: str):
    return compute.post(f"/servers/{server_id}/action", json={name: {"name": group}})


def test_groups_are_added_to_and_removed_from_a_servers_ports(
    networks, compute, image, flavor
):
    net, _ = networks.create("10.40.0.0/24")
    group = networks.security_group()
    server_id = boot(compute, image, flavor, [{"uuid": net["id"]}])
    server = wait(compute, server_id)
    assert server["status"] == "ACTIVE", server.get("fault")
    assert server["security_groups"] == [{"name": "default"}]
    (port,) = networks.ports(device_id=server_id)
    default_id = port["security_groups"][0]

    listed = compute.get(f"/servers/{server_id}/os-security-groups")
    assert listed.status_code == 200, listed.text
    assert [g["id"] for g in listed.json()["security_groups"]] == [default_id]

    added = _action(compute, server_id, "addSecurityGroup", group["name"])
    assert added.status_code == 202, added.text
    (port,) = networks.ports(device_id=server_id)
    assert sorted(port["security_groups"]) == sorted([default_id, group["id"]])
    names = {
        g["name"]
        for g in compute.get(f"/servers/{server_id}/os-security-groups").json()[
            "security_groups"
        ]
    }
    assert names == {"default", group["name"]}
    shown = compute.get(f"/servers/{server_id}").json()["server"]
    assert sorted(g["name"] for g in shown["security_groups"]) == sorted(
        ["default", group["name"]]
    )
    again = _action(compute, server_id, "addSecurityGroup", group["name"])
    assert again.status_code == 400, again.text

    removed = _action(compute, server_id, "removeSecurityGroup", group["id"])
    assert removed.status_code == 202, removed.text
    (port,) = networks.ports(device_id=server_id)
    assert port["security_groups"] == [default_id]
    gone = _action(compute, server_id, "removeSecurityGroup", group["name"])
    assert gone.status_code == 400, gone.text

    assert _action(compute, server_id, "addSecurityGroup", "nope").status_code == 404
    empty = compute.post(
        f"/servers/{server_id}/action", json={"addSecurityGroup": {"name": " "}}
    )
    assert empty.status_code == 400, empty.text
    delete(compute, server_id)


def test_a_server_without_ports_has_no_groups_to_change(compute, image, flavor):
    server_id = boot(compute, image, flavor, "none")
    server = wait(compute, server_id)
    assert server["status"] == "ACTIVE", server.get("fault")
    listed = compute.get(f"/servers/{server_id}/os-security-groups").json()
    assert listed == {"security_groups": []}
    response = _action(compute, server_id, "addSecurityGroup", "default")
    assert response.status_code == 404, response.text
    delete(compute, server_id)


def test_the_proxy_makes_shows_changes_and_deletes_groups_and_rules(
    cloud, networks, proxy
):
    name = unique("proxy")
    created = proxy.post(
        "/os-security-groups",
        json={"security_group": {"name": name, "description": "made by nova"}},
    )
    assert created.status_code == 200, created.text
    group = created.json()["security_group"]
    networks.security_groups.append(group["id"])
    project_id = cloud.services.session(cloud.services.demo).get_project_id()
    assert group["name"] == name and group["description"] == "made by nova"
    assert group["tenant_id"] == project_id
    # Neutron's egress rules are not nova's: none shows.
    assert group["rules"] == []

    rule = proxy.post(
        "/os-security-group-rules",
        json={
            "security_group_rule": {
                "parent_group_id": group["id"],
                "ip_protocol": "tcp",
                "from_port": 22,
                "to_port": 22,
                "cidr": "10.0.0.0/8",
            }
        },
    )
    assert rule.status_code == 200, rule.text
    rule = rule.json()["security_group_rule"]
    assert rule["ip_protocol"] == "tcp"
    assert (rule["from_port"], rule["to_port"]) == (22, 22)
    assert rule["ip_range"] == {"cidr": "10.0.0.0/8"}
    assert rule["parent_group_id"] == group["id"]
    duplicate = proxy.post(
        "/os-security-group-rules",
        json={
            "security_group_rule": {
                "parent_group_id": group["id"],
                "ip_protocol": "tcp",
                "from_port": 22,
                "to_port": 22,
                "cidr": "10.0.0.0/8",
            }
        },
    )
    assert duplicate.status_code == 400, duplicate.text
    icmp = proxy.post(
        "/os-security-group-rules",
        json={
            "security_group_rule": {
                "parent_group_id": group["id"],
                "ip_protocol": "icmp",
                "from_port": -1,
                "to_port": -1,
                "group_id": group["id"],
            }
        },
    )
    assert icmp.status_code == 200, icmp.text
    assert icmp.json()["security_group_rule"]["group"] == {
        "name": name,
        "tenant_id": project_id,
    }

    shown = proxy.get(f"/os-security-groups/{group['id']}").json()["security_group"]
    assert sorted(r["ip_protocol"] for r in shown["rules"]) == ["icmp", "tcp"]
    listed = proxy.get("/os-security-groups").json()["security_groups"]
    assert group["id"] in [g["id"] for g in listed]
    assert "default" in [g["name"] for g in listed]

    updated = proxy.put(
        f"/os-security-groups/{group['id']}",
        json={"security_group": {"name": name + "-2", "description": "changed"}},
    )
    assert updated.status_code == 200, updated.text
    assert updated.json()["security_group"]["name"] == name + "-2"

    assert proxy.delete(f"/os-security-group-rules/{rule['id']}").status_code == 202
    assert proxy.delete(f"/os-security-group-rules/{rule['id']}").status_code == 404
    assert proxy.delete(f"/os-security-groups/{group['id']}").status_code == 202
    assert proxy.get(f"/os-security-groups/{group['id']}").status_code == 404


def test_bad_proxy_requests_are_refused_and_it_is_gone_from_2_36(cloud, proxy):
    missing = str(uuid.uuid4())
    assert proxy.get(f"/os-security-groups/{missing}").status_code == 404
    assert proxy.get("/os-security-groups/not-a-uuid").status_code == 400
    assert proxy.delete(f"/os-security-groups/{missing}").status_code == 404
    for body in (
        {"security_group": {"name": "", "description": "x"}},
        {"security_group": {"name": "x"}},
        {"security_group": "x"},
        {"nothing": {}},
        {"security_group": {"name": "x" * 256, "description": "x"}},
    ):
        response = proxy.post("/os-security-groups", json=body)
        assert response.status_code == 400, (body, response.text)

    default = [
        g
        for g in proxy.get("/os-security-groups").json()["security_groups"]
        if g["name"] == "default"
    ][0]

    def rule(**fields):
        return proxy.post(
            "/os-security-group-rules",
            json={"security_group_rule": {"parent_group_id": default["id"], **fields}},
        )

    assert rule(ip_protocol="sctp-ish", from_port=1, to_port=2).status_code == 400
    assert rule(ip_protocol="tcp", from_port=0, to_port=22).status_code == 400
    assert rule(ip_protocol="tcp", from_port=30, to_port=22).status_code == 400
    assert rule(ip_protocol="tcp", from_port="a", to_port=22).status_code == 400
    assert rule(ip_protocol="icmp", from_port=300, to_port=0).status_code == 400
    assert (
        rule(ip_protocol="tcp", from_port=1, to_port=2, cidr="10.0.0.0/33").status_code
        == 400
    )
    bad_parent = proxy.post(
        "/os-security-group-rules",
        json={
            "security_group_rule": {
                "parent_group_id": missing,
                "ip_protocol": "tcp",
                "from_port": 1,
                "to_port": 2,
            }
        },
    )
    assert bad_parent.status_code == 404, bad_parent.text
    assert proxy.delete(f"/os-security-group-rules/{missing}").status_code == 404
    # The default group cannot go.
    assert proxy.delete(f"/os-security-groups/{default['id']}").status_code == 400

    later = cloud.compute(cloud.services.demo, microversion="2.36")
    assert later.get("/os-security-groups").status_code == 404
    assert later.post("/os-security-group-rules", json={}).status_code == 404
