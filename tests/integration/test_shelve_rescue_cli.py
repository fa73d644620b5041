"""Rescue and the shelve family end to end on the fake driver: the
unmodified ``openstack`` CLI against a launched cloud (real Keystone,
Placement, Glance, MariaDB, RabbitMQ; our services as separate processes)."""

from __future__ import annotations

import re

import pytest

from nova.states import power_state
from tests.fixtures.local_cloud import wait_for
from tests.fixtures.openstack_services import OpenStackCLIError
from tests.integration.test_server_power_actions import (  # noqa: F401  (fixtures)
    ACTION_TIMEOUT,
    _wait_status,
    cloud,
    server,
)

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]


def test_rescue_and_unrescue_with_the_openstack_cli(cloud, server):  # noqa: F811
    demo = cloud.services.demo_cloud
    sid = server["id"]
    # The CLI shows the image as "name (id)".
    shown_image = cloud.openstack("server", "show", sid)["image"]
    image_id = re.search(r"\(([0-9a-f-]{36})\)", shown_image).group(1)

    def run(*args):
        cloud.openstack("server", *args, sid, cloud=demo, json_output=False)

    run("rescue")
    _wait_status(cloud, sid, "RESCUE", power_state.RUNNING)
    with pytest.raises(OpenStackCLIError, match="409|Cannot"):
        run("rescue")
    run("unrescue")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    run("rescue", "--image", image_id, "--password", "rescue-pass")
    _wait_status(cloud, sid, "RESCUE", power_state.RUNNING)
    run("unrescue")
    _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)


def test_shelve_and_unshelve_with_the_openstack_cli(cloud, server):  # noqa: F811
    demo = cloud.services.demo_cloud
    sid = server["id"]

    def run(*args):
        cloud.openstack("server", *args, sid, cloud=demo, json_output=False)

    run("shelve")
    shelved = _wait_status(cloud, sid, "SHELVED_OFFLOADED", power_state.NOSTATE)
    assert not shelved["OS-EXT-SRV-ATTR:host"]
    images = cloud.openstack("image", "list", "--name", f"{server['name']}-shelved")
    assert len(images) == 1, images
    # The CLI skips servers it sees shelved; the API says 409.
    compute = cloud.compute(cloud.services.demo)
    response = compute.post(f"/servers/{sid}/action", json={"shelve": None})
    assert response.status_code == 409, response.text

    run("unshelve")
    active = _wait_status(cloud, sid, "ACTIVE", power_state.RUNNING)
    assert active["OS-EXT-SRV-ATTR:host"]

    def image_gone():
        listed = cloud.openstack("image", "list", "--name", f"{server['name']}-shelved")
        return not listed

    wait_for(image_gone, ACTION_TIMEOUT, "the shelved image to be deleted")
