"""Real Cinder on Ceph RBD, and volumes attached through our compute API."""

from __future__ import annotations

import time

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]


def test_a_new_volume_becomes_available_on_rbd(cinder_cloud):
    cinder = cinder_cloud.cinder
    client = cinder.client(cinder_cloud.cloud.services.demo)
    began = time.monotonic()
    created = client.post("/volumes", json={"volume": {"size": 1, "name": "v1"}})
    assert created.status_code == 202, created.text
    volume = cinder.wait_volume(
        created.json()["volume"]["id"], "available", client=client
    )
    print(f"create to available: {time.monotonic() - began:.1f} s")
    assert volume["size"] == 1
    assert client.delete(f"/volumes/{volume['id']}").status_code == 202
    cinder.wait_volume(volume["id"], "deleted", client=client)
