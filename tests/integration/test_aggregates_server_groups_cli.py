"""Host aggregates and server groups through the unmodified ``openstack``
CLI, on the local cloud (real Keystone, Placement, Glance; two computes)."""

from __future__ import annotations

import uuid

import pytest

from tests.integration.test_boot_path import HOSTS, image  # noqa: F401  (fixture)

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]


@pytest.fixture
def cloud(local_cloud):
    with local_cloud.exclusive():
        yield local_cloud


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _providers_in(cloud, aggregate_uuid: str) -> set[str]:
    response = cloud.placement().get(f"/resource_providers?member_of={aggregate_uuid}")
    return {rp["name"] for rp in response.json()["resource_providers"]}


def test_aggregate_lifecycle_mirrored_in_placement(cloud):
    name, zone = _unique("agg"), _unique("az")
    created = cloud.openstack("aggregate", "create", "--zone", zone, name)
    assert created["name"] == name and created["availability_zone"] == zone
    host = sorted(HOSTS)[0]
    cloud.openstack("aggregate", "add", "host", name, host)
    cloud.openstack(
        "aggregate", "set", "--property", "ssd=true", name, json_output=False
    )
    shown = cloud.openstack("aggregate", "show", name)
    assert shown["hosts"] == [host]
    assert shown["properties"] == {"ssd": "true"}
    agg = cloud.compute(microversion="2.41").get(f"/os-aggregates/{shown['id']}")
    agg_uuid = agg.json()["aggregate"]["uuid"]
    assert _providers_in(cloud, agg_uuid) == {host}
    zones = cloud.compute().get("/os-availability-zone").json()
    assert zone in {z["zoneName"] for z in zones["availabilityZoneInfo"]}

    cloud.openstack("aggregate", "unset", "--property", "ssd", name, json_output=False)
    cloud.openstack("aggregate", "remove", "host", name, host)
    assert _providers_in(cloud, agg_uuid) == set()
    cloud.openstack("aggregate", "delete", name, json_output=False)
    names = {a["Name"] for a in cloud.openstack("aggregate", "list")}
    assert name not in names


def test_anti_affinity_group_spreads_its_servers(cloud, image):  # noqa: F811
    demo = cloud.services.demo_cloud
    group = cloud.openstack(
        "server", "group", "create", "--policy", "anti-affinity", _unique("g"),
        cloud=demo,
    )  # fmt: skip
    flavor = _unique("m1")
    cloud.openstack(
        "flavor", "create", "--vcpus", "1", "--ram", "128", "--disk", "1", flavor
    )
    name = _unique("aa")
    cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image["name"],
        "--no-network", "--hint", f"group={group['id']}", "--min", "2", "--max",
        "2", "--wait", name, cloud=demo,
    )  # fmt: skip
    shown = cloud.openstack("server", "group", "show", group["id"], cloud=demo)
    assert len(shown["members"]) == 2
    hosts = {
        cloud.openstack("server", "show", member)["OS-EXT-SRV-ATTR:host"]
        for member in shown["members"]
    }
    assert hosts == HOSTS
    cloud.openstack(
        "server", "delete", "--wait", *shown["members"], cloud=demo, json_output=False
    )
    cloud.openstack("server", "group", "delete", group["id"], cloud=demo,
                    json_output=False)  # fmt: skip
    cloud.openstack("flavor", "delete", flavor, json_output=False)
