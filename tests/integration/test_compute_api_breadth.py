"""The Compute API resources around servers, driven by the real ``openstack``
CLI against a launched cloud (real Keystone, Placement, Glance, MariaDB,
RabbitMQ, two fake-driver computes): metadata, tags, addresses, instance
actions, services, hypervisors, zones, usage, migrations and external
events delivered to the compute over RPC."""

from __future__ import annotations

import uuid

import pytest

from tests.fixtures.local_cloud import COMPUTES, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]

HOSTS = {f"compute-{n}" for n in range(1, COMPUTES + 1)}
VERSION = ("--os-compute-api-version", "2.96")


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def server(local_cloud):
    """An ACTIVE server of the demo project, booted through the CLI."""
    from keystoneauth1 import adapter

    glance = adapter.Adapter(
        local_cloud.services.session(), service_type="image", interface="public",
        region_name=local_cloud.services.region,
    )  # fmt: skip
    image = glance.post(
        "/v2/images",
        json={"name": _unique("img"), "disk_format": "raw",
              "container_format": "bare", "visibility": "public"},
    ).json()  # fmt: skip
    glance.put(
        f"/v2/images/{image['id']}/file", data=b"\0" * 4096,
        headers={"Content-Type": "application/octet-stream"},
    )  # fmt: skip
    flavor = _unique("m1")
    local_cloud.openstack(
        "flavor", "create", "--vcpus", "1", "--ram", "64", "--disk", "1", flavor
    )
    demo = local_cloud.services.demo_cloud
    created = local_cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image["id"],
        "--no-network", "--property", "role=web", "--wait", _unique("s"),
        cloud=demo,
    )  # fmt: skip
    assert created["status"] == "ACTIVE"
    yield created
    local_cloud.openstack(
        "server", "delete", "--wait", created["id"], cloud=demo, json_output=False
    )
    glance.delete(f"/v2/images/{image['id']}", raise_exc=False)


def test_metadata_tags_and_addresses(local_cloud, server):
    demo = local_cloud.services.demo_cloud
    run = local_cloud.openstack
    run(*VERSION, "server", "set", "--property", "tier=1", "--tag", "blue",
        "--tag", "green", server["id"], cloud=demo, json_output=False)  # fmt: skip
    shown = run(*VERSION, "server", "show", server["id"], cloud=demo)
    assert shown["properties"] == {"role": "web", "tier": "1"}
    assert sorted(shown["tags"]) == ["blue", "green"]
    run(*VERSION, "server", "unset", "--property", "role", "--tag", "blue",
        server["id"], cloud=demo, json_output=False)  # fmt: skip
    shown = run(*VERSION, "server", "show", server["id"], cloud=demo)
    assert shown["properties"] == {"tier": "1"}
    assert shown["tags"] == ["green"]
    tagged = run(*VERSION, "server", "list", "--tags", "green", cloud=demo)
    assert [s["ID"] for s in tagged] == [server["id"]]

    compute = local_cloud.compute(local_cloud.services.demo)
    ips = compute.get(f"/servers/{server['id']}/ips")
    assert ips.status_code == 200 and ips.json() == {"addresses": {}}


def test_instance_actions(local_cloud, server):
    demo = local_cloud.services.demo_cloud
    events = local_cloud.openstack(*VERSION, "server", "event", "list",
                                   server["id"], cloud=demo)  # fmt: skip
    assert [e["Action"] for e in events] == ["create"]
    shown = local_cloud.openstack(
        *VERSION, "server", "event", "show", server["id"],
        events[0]["Request ID"], cloud=demo,
    )  # fmt: skip
    assert shown["action"] == "create"
    names = {event["event"] for event in shown["events"]}
    assert "compute_build_and_run_instance" in names


def test_services_hypervisors_and_zones(local_cloud, server):
    run = local_cloud.openstack
    hypervisors = run(*VERSION, "hypervisor", "list")
    assert {h["Hypervisor Hostname"] for h in hypervisors} >= HOSTS
    # `hypervisor show` also reads os-aggregates, which is not served yet.
    shown = local_cloud.compute().get(f"/os-hypervisors/{hypervisors[0]['ID']}")
    assert shown.json()["hypervisor"]["hypervisor_type"]
    stats = run("--os-compute-api-version", "2.87", "hypervisor", "stats", "show")
    assert stats["count"] == COMPUTES

    with local_cloud.exclusive():
        try:
            run(*VERSION, "compute", "service", "set", "--disable",
                "--disable-reason", "maintenance", "compute-2", "nova-compute",
                json_output=False)  # fmt: skip
            listed = run(*VERSION, "compute", "service", "list", "--long")
            by_host = {s["Host"]: s for s in listed if s["Binary"] == "nova-compute"}
            assert by_host["compute-2"]["Status"] == "disabled"
            assert by_host["compute-2"]["Disabled Reason"] == "maintenance"
        finally:
            run(*VERSION, "compute", "service", "set", "--enable", "compute-2",
                "nova-compute", json_output=False)  # fmt: skip
        listed = run(*VERSION, "compute", "service", "list")
        assert {s["Status"] for s in listed if s["Binary"] == "nova-compute"} == {
            "enabled"
        }

    zones = run("availability", "zone", "list", "--compute", "--long")
    assert {z["Host Name"] for z in zones if z["Zone Name"] == "nova"} >= HOSTS


def test_usage_and_migrations(local_cloud, server):
    run = local_cloud.openstack
    usages = run("usage", "list")
    assert usages and all(float(u["CPU Hours"]) >= 0 for u in usages)
    assert run(*VERSION, "server", "migration", "list") == []


def test_external_event_reaches_the_compute(local_cloud, server):
    shown = local_cloud.compute().get(f"/servers/{server['id']}").json()["server"]
    host = shown["OS-EXT-SRV-ATTR:host"]
    tag = _unique("port")
    # Events come from other services' users (the service role).
    service_user = next(iter(local_cloud.services.service_users.values()))
    compute = local_cloud.compute(service_user)
    response = compute.post(
        "/os-server-external-events",
        json={"events": [{"name": "network-vif-plugged",
                          "server_uuid": server["id"], "tag": tag}]},
    )  # fmt: skip
    assert response.status_code == 200, response.text
    assert response.json()["events"][0]["code"] == 200
    log = local_cloud.deployment.state.log(f"nova-{host}")
    wait_for(
        lambda: tag in log.read_text(errors="replace"),
        60,
        f"the event to be logged by nova-{host}",
    )
