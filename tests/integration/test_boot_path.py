"""The server boot path end to end, on a cloud ``nova-local-cloud`` launched.

Real Keystone, Placement and Glance; nova-api, nova-scheduler, the
superconductor, cell1's conductor and two nova-computes (fake driver) as
separate processes on MariaDB and RabbitMQ (``local_cloud`` fixture). Driven
over HTTP with keystoneauth1 and with the unmodified ``openstack`` and
``nova`` CLIs using password auth against Keystone.

Every test holds the cloud alone (``cloud`` fixture), so counts of usages and
services are exact even when pytest-xdist runs tests on several workers.
"""

from __future__ import annotations

import concurrent.futures
import json
import uuid

import pytest

from tests.fixtures.local_cloud import COMPUTES, SERVICE_DOWN_TIME, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.mysql,
    pytest.mark.rabbitmq,
]

HOSTS = {f"compute-{n}" for n in range(1, COMPUTES + 1)}
BOOT_TIMEOUT = 120
# Far beyond what a fake host offers (800000 MB at most 1.5 times over).
HUGE_RAM_MB = 4_000_000


@pytest.fixture
def cloud(local_cloud):
    with local_cloud.exclusive():
        yield local_cloud


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def image(local_cloud) -> dict:
    """A public raw image with a few bytes of data, in the real Glance."""
    from keystoneauth1 import adapter

    glance = adapter.Adapter(
        local_cloud.services.session(),
        service_type="image",
        interface="public",
        region_name=local_cloud.services.region,
    )
    name = _unique("cirros")
    created = glance.post(
        "/v2/images",
        json={
            "name": name,
            "disk_format": "raw",
            "container_format": "bare",
            "visibility": "public",
        },
    ).json()
    glance.put(
        f"/v2/images/{created['id']}/file",
        data=b"\0" * 65536,
        headers={"Content-Type": "application/octet-stream"},
    )
    shown = glance.get(f"/v2/images/{created['id']}").json()
    assert shown["status"] == "active"
    yield shown
    glance.delete(f"/v2/images/{created['id']}", raise_exc=False)


def _create_flavor(compute, vcpus: int, ram: int, disk: int) -> dict:
    name = _unique("flavor")
    response = compute.post(
        "/flavors",
        json={"flavor": {"name": name, "vcpus": vcpus, "ram": ram, "disk": disk}},
    )
    assert response.status_code == 200, response.text
    return response.json()["flavor"]


def _project_session(cloud, name: str):
    """A Keystone project of its own (usages are counted per project) and an
    admin session scoped to it."""
    from keystoneauth1 import adapter

    identity = adapter.Adapter(
        cloud.services.session(), service_type="identity", interface="public"
    )
    project = identity.post(
        "/projects", json={"project": {"name": name, "domain_id": "default"}}
    ).json()["project"]
    user = identity.get("/users", params={"name": "admin"}).json()["users"][0]
    role = identity.get("/roles", params={"name": "admin"}).json()["roles"][0]
    identity.put(f"/projects/{project['id']}/users/{user['id']}/roles/{role['id']}")
    admin = cloud.services.admin
    credentials = type(admin)(admin.username, admin.password, name)
    return project, credentials


def _boot(compute, name: str, flavor: dict, image: dict) -> str:
    response = compute.post(
        "/servers",
        json={
            "server": {
                "name": name,
                "flavorRef": flavor["id"],
                "imageRef": image["id"],
                "networks": "none",
            }
        },
    )
    assert response.status_code == 202, response.text
    return response.json()["server"]["id"]


def _servers(compute, ids) -> dict[str, dict]:
    found = compute.get("/servers/detail").json()["servers"]
    return {s["id"]: s for s in found if s["id"] in ids}


def _wait_status(compute, ids, statuses, timeout=BOOT_TIMEOUT) -> dict[str, dict]:
    def settled():
        servers = _servers(compute, ids)
        if len(servers) == len(ids) and all(
            s["status"] in statuses for s in servers.values()
        ):
            return servers
        return None

    return wait_for(settled, timeout, f"{len(ids)} servers to reach {statuses}")


def _delete_and_wait(compute, ids) -> None:
    for server_id in ids:
        response = compute.delete(f"/servers/{server_id}")
        assert response.status_code == 204, response.text
    wait_for(
        lambda: all(compute.get(f"/servers/{i}").status_code == 404 for i in ids),
        BOOT_TIMEOUT,
        "servers to be deleted",
    )


def _usages(cloud, project_id: str) -> dict[str, int]:
    usages = cloud.placement().get("/usages", params={"project_id": project_id})
    return {rc: used for rc, used in usages.json()["usages"].items() if used}


def test_ten_servers_boot_spread_and_release_their_usages(cloud, image):
    project, credentials = _project_session(cloud, _unique("boot"))
    compute = cloud.compute(credentials)
    flavor = _create_flavor(cloud.compute(), vcpus=2, ram=512, disk=3)
    prefix = _unique("ten")
    with concurrent.futures.ThreadPoolExecutor(5) as pool:
        ids = list(
            pool.map(
                lambda n: _boot(compute, f"{prefix}-{n}", flavor, image), range(10)
            )
        )

    servers = _wait_status(compute, ids, {"ACTIVE", "ERROR"})
    faults = {
        s["name"]: s.get("fault") for s in servers.values() if s["status"] != "ACTIVE"
    }
    assert faults == {}
    assert {s["OS-EXT-SRV-ATTR:host"] for s in servers.values()} == HOSTS
    assert all(s["OS-EXT-STS:power_state"] == 1 for s in servers.values())
    assert _usages(cloud, project["id"]) == {
        "VCPU": 10 * flavor["vcpus"],
        "MEMORY_MB": 10 * flavor["ram"],
        "DISK_GB": 10 * flavor["disk"],
    }

    _delete_and_wait(compute, ids)
    assert _usages(cloud, project["id"]) == {}


def test_flavor_no_host_fits_ends_in_cell0_with_the_reason(cloud, image):
    project, credentials = _project_session(cloud, _unique("nofit"))
    compute = cloud.compute(credentials)
    flavor = _create_flavor(cloud.compute(), vcpus=1, ram=HUGE_RAM_MB, disk=1)
    # Past the default RAM quota too: lift it, so the scheduler is who says no.
    unlimited = cloud.compute().put(
        f"/os-quota-sets/{project['id']}", json={"quota_set": {"ram": -1}}
    )
    assert unlimited.status_code == 200, unlimited.text
    server_id = _boot(compute, _unique("huge"), flavor, image)

    server = _wait_status(compute, [server_id], {"ACTIVE", "ERROR"})[server_id]
    assert server["status"] == "ERROR"
    assert server["OS-EXT-SRV-ATTR:host"] is None
    fault = server["fault"]
    assert "MEMORY_MB" in fault["message"], fault
    assert str(HUGE_RAM_MB) in fault["message"], fault
    verified = cloud.nova_manage("cell_v2", "verify_instance", "--uuid", server_id)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "cell0" in verified.stdout
    assert _usages(cloud, project["id"]) == {}

    _delete_and_wait(compute, [server_id])
    assert _usages(cloud, project["id"]) == {}


def _compute_states(services: list[dict]) -> dict[str, str]:
    return {s["host"]: s["state"] for s in services if s["binary"] == "nova-compute"}


def test_a_stopped_compute_is_reported_down(cloud):
    compute = cloud.compute()

    def states():
        response = compute.get("/os-services")
        assert response.status_code == 200, response.text
        return _compute_states(response.json()["services"])

    assert states() == dict.fromkeys(HOSTS, "up")
    stopped = cloud.process("nova-compute-2")
    try:
        assert stopped.stop()
        down = wait_for(
            lambda: (s := states())["compute-2"] == "down" and s,
            SERVICE_DOWN_TIME * 4,
            "compute-2 to be reported down",
        )
        assert down == {"compute-1": "up", "compute-2": "down"}
        listed = cloud.openstack("compute", "service", "list")
        cli_states = {
            s["Host"]: s["State"] for s in listed if s["Binary"] == "nova-compute"
        }
        assert cli_states == {"compute-1": "up", "compute-2": "down"}
    finally:
        cloud.restart_stopped()
    wait_for(
        lambda: states() == dict.fromkeys(HOSTS, "up"),
        SERVICE_DOWN_TIME * 4,
        "compute-2 to be up again",
    )


def test_openstack_cli_server_lifecycle(cloud, image):
    demo = cloud.services.demo_cloud
    flavor = _unique("m1")
    created = cloud.openstack(
        "flavor", "create", "--vcpus", "1", "--ram", "128", "--disk", "1", flavor
    )
    assert created["name"] == flavor
    name = _unique("s")
    first = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image["name"],
        "--no-network", "--wait", name, cloud=demo,
    )  # fmt: skip
    assert first["status"] == "ACTIVE"
    many = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image["name"],
        "--no-network", "--min", "4", "--max", "4", "--wait", f"{name}-many",
        cloud=demo,
    )  # fmt: skip
    assert many["status"] == "ACTIVE"

    listed = cloud.openstack("server", "list", "--name", f"^{name}", cloud=demo)
    names = sorted(s["Name"] for s in listed)
    assert names == sorted([name] + [f"{name}-many-{n}" for n in range(1, 5)])
    assert {s["Status"] for s in listed} == {"ACTIVE"}
    assert {s["Flavor"] for s in listed} == {flavor}

    shown = cloud.openstack("server", "show", name, cloud=demo)
    assert shown["status"] == "ACTIVE"
    assert shown["id"] == first["id"]
    assert shown["image"].startswith(image["name"])
    services = cloud.openstack("compute", "service", "list")
    assert _compute_states(
        [
            {"binary": s["Binary"], "host": s["Host"], "state": s["State"]}
            for s in services
        ]
    ) == dict.fromkeys(HOSTS, "up")

    ids = [s["ID"] for s in listed]
    cloud.openstack("server", "delete", "--wait", *ids, cloud=demo, json_output=False)
    assert cloud.openstack("server", "list", "--name", f"^{name}", cloud=demo) == []


def test_novaclient_boot_list_show_delete(cloud, image):
    flavor = _unique("m1")
    cloud.openstack("flavor", "create", "--ram", "64", "--disk", "1", flavor)
    name = _unique("nb")
    booted = cloud.nova(
        "boot", "--flavor", flavor, "--image", image["id"], "--nic", "none",
        "--poll", name,
    )  # fmt: skip
    assert "Finished" in booted
    assert name in cloud.nova("list", "--name", f"^{name}$")
    shown = _nova_table(cloud.nova("show", name))
    assert shown["status"] == "ACTIVE"
    assert shown["name"] == name
    assert shown["OS-EXT-STS:vm_state"] == "active"
    cloud.nova("delete", name)
    wait_for(
        lambda: name not in cloud.nova("list", "--name", f"^{name}$"),
        BOOT_TIMEOUT,
        f"{name} to be deleted",
    )


def _nova_table(text: str) -> dict[str, str]:
    """``nova show``'s two-column table as a dict."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and not line.startswith("+"):
            rows[cells[0]] = cells[1]
    return rows


def test_compute_api_answers_through_the_catalog(cloud):
    """The catalog's compute endpoint is our nova-api (version document)."""
    response = cloud.compute().get("/")
    assert response.status_code == 200
    version = json.loads(response.text)["version"]
    assert version["id"] == "v2.1"
