"""Horizon, unmodified from PyPI, against a local cloud, in Chromium.

The cloud is ``nova-local-cloud`` (real Keystone, Placement and Glance, our
daemons, two fake-driver computes); Horizon runs under gunicorn as
``nova-local-cloud start --dashboard`` runs it, and finds our Compute API
through Keystone's catalog. Each test logs in through Horizon's form and
reads what Horizon renders from our answers.

Horizon's launch wizard asks Neutron for networks and sends ``networks``
on every create above microversion 2.36; without Neutron it cannot launch
(Horizon answers "nics are required after microversion 2.36"), so the
server these tests drive is created through the Compute API, and the
wizard is tested on the cloud with Neutron (test_launch_wizard.py). So is
an instance's detail page with its Console tab: Horizon asks Neutron for
the instance's security groups there and renders no page without it.
"""

from __future__ import annotations

import time

import pytest

from tests.fixtures.neutron_servers import make_flavor, make_image, unique
from tests.integration.dashboard.conftest import dashboard_for

pytestmark = [pytest.mark.rabbitmq, pytest.mark.mysql]

ACTIVE_TIMEOUT = 120


@pytest.fixture(scope="module")
def dashboard(local_cloud, tmp_path_factory):
    with dashboard_for(local_cloud, tmp_path_factory) as running:
        yield running


def _server_status(compute, server_id: str) -> str | None:
    response = compute.get(f"/servers/{server_id}")
    if response.status_code == 404:
        return None
    return response.json()["server"]["status"]


def _wait_for_api_status(compute, server_id: str, status: str | None) -> None:
    deadline = time.monotonic() + ACTIVE_TIMEOUT
    while (seen := _server_status(compute, server_id)) != status:
        assert time.monotonic() < deadline, f"{server_id}: {seen}, not {status}"
        time.sleep(1)


def test_a_member_sees_stops_starts_and_deletes_a_server(local_cloud, pages):
    # Alone on the cloud: tests that count the demo project's usage must not
    # see this server half created or half deleted.
    with local_cloud.exclusive():
        _drive_a_server(local_cloud, pages)


def _drive_a_server(local_cloud, pages) -> None:
    image, flavor = make_image(local_cloud), make_flavor(local_cloud)
    demo = local_cloud.compute(local_cloud.services.demo)
    name = unique("hz")
    response = demo.post(
        "/servers",
        json={
            "server": {
                "name": name,
                "imageRef": image["id"],
                "flavorRef": flavor["id"],
                "networks": "none",
            }
        },
    )
    assert response.status_code == 202, response.text
    server_id = response.json()["server"]["id"]
    _wait_for_api_status(demo, server_id, "ACTIVE")

    pages.login("demo", local_cloud.services.demo.password)
    row = pages.wait_for_instance(name, "Active")
    assert image["name"] in row and flavor["name"] in row and "Running" in row

    pages.instance_action(server_id, "stop", confirm=True)
    row = pages.wait_for_instance(name, "Shutoff")
    assert "Shut Down" in row
    assert _server_status(demo, server_id) == "SHUTOFF"

    pages.instance_action(server_id, "start", confirm=False)
    pages.wait_for_instance(name, "Active")
    assert _server_status(demo, server_id) == "ACTIVE"

    pages.instance_action(server_id, "delete", confirm=True)
    pages.wait_for_instance(name, None)
    _wait_for_api_status(demo, server_id, None)


def test_an_admin_sees_the_hypervisors_and_the_compute_services(local_cloud, pages):
    admin = local_cloud.compute()
    hypervisors = admin.get("/os-hypervisors").json()["hypervisors"]
    services = admin.get("/os-services").json()["services"]
    computes = {s["host"] for s in services if s["binary"] == "nova-compute"}
    assert len(hypervisors) == len(computes) == 2

    pages.login("admin", local_cloud.services.admin.password)
    pages.open("/admin/hypervisors/")
    assert pages.title().startswith("Hypervisors")
    shown = {row[0]: row for row in pages.table_texts("hypervisors")}
    assert set(shown) == {h["hypervisor_hostname"] for h in hypervisors}
    assert all(row[1] == "fake" for row in shown.values())
    hosts = {row[0]: row for row in pages.table_texts("compute_host")}
    assert set(hosts) == computes
    assert all(row[2:4] == ["Enabled", "Up"] for row in hosts.values())

    pages.open("/admin/info/?tab=system_info__nova_services")
    listed = pages.table_texts("nova_services")
    assert {row[0] for row in listed} >= {
        "nova-compute",
        "nova-scheduler",
        "nova-conductor",
    }
    assert all(row[4] == "Up" for row in listed), listed
    catalog = {row[2] for row in pages.table_texts("services")}
    assert {"compute", "image", "placement", "identity"} <= catalog
