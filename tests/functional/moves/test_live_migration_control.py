"""A live migration caught running (the fake hypervisor's takes
``spawn_seconds`` unless told otherwise): forced to complete (2.22) it
ends ``completed`` at once on the destination; aborted (2.24) it ends
``cancelled`` with the server running where it was and the allocation
back on the source."""

from __future__ import annotations

import time

import pytest

from nova.states import vm_states
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.boot.deployment import wait_for
from tests.functional.moves.conftest import (
    SMALL_RESOURCES,
    STATE_TIMEOUT,
    action,
    allocations,
    boot,
    instance,
    migration_ended,
    migrations,
    provider,
    settled,
)

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
    # Long enough for a test to act on the migration while it runs.
    pytest.mark.parametrize(
        "fake_driver_options", [{"spawn_seconds": 30}], indirect=True
    ),
]
LIVE_MIGRATE = {"os-migrateLive": {"block_migration": "auto", "host": None}}


def _running(cloud, uuid: str):
    def found():
        listed = migrations(cloud, uuid)
        return listed[0] if listed and listed[0].status == "running" else None

    return wait_for(found, STATE_TIMEOUT, "the live migration to run")


def _on_migration(cloud, uuid, migration_id, method="POST", version="2.24", **kw):
    path = f"/v2.1/servers/{uuid}/migrations/{migration_id}"
    if method == "POST":
        return cloud.api.post(
            f"{path}/action", {"force_complete": None}, version=version, **kw
        )
    return cloud.api.delete(path, version=version, **kw)


def test_force_complete_then_abort(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    # Nothing to act on yet: the server is in no migration.
    response = _on_migration(cloud, uuid, 1, token=ADMIN)
    assert response.status_code == 409, response.text

    response = action(cloud, uuid, LIVE_MIGRATE, token=ADMIN, version="2.68")
    assert response.status_code == 202, response.text
    migration = _running(cloud, uuid)
    # Left alone, the move would go on for spawn_seconds from now.
    running_since = time.monotonic()

    response = _on_migration(cloud, uuid, migration.id)
    assert response.status_code == 403, response.text
    response = _on_migration(cloud, uuid, migration.id, token=ADMIN, version="2.21")
    assert response.status_code == 404, response.text
    response = _on_migration(cloud, uuid, migration.id + 1000, token=ADMIN)
    assert response.status_code == 400, response.text
    response = _on_migration(cloud, uuid, migration.id, token=ADMIN, version="2.22")
    assert response.status_code == 202, response.text
    migration_ended(cloud, uuid, "completed")
    moved = settled(cloud, uuid, vm_states.ACTIVE)
    assert time.monotonic() - running_since < 25
    assert moved.host == dest
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    # Over: neither forced nor aborted again.
    response = _on_migration(cloud, uuid, migration.id, method="DELETE", token=ADMIN)
    assert response.status_code == 409, response.text

    # Back towards the first host, aborted this time.
    response = action(cloud, uuid, LIVE_MIGRATE, token=ADMIN, version="2.68")
    assert response.status_code == 202, response.text
    second = _running(cloud, uuid)
    response = _on_migration(
        cloud, uuid, second.id + 1000, method="DELETE", token=ADMIN
    )
    assert response.status_code == 404, response.text
    assert "not found" in fault(response)[2]
    response = _on_migration(cloud, uuid, second.id, method="DELETE", token=ADMIN)
    assert response.status_code == 202, response.text

    def cancelled():
        found = [m for m in migrations(cloud, uuid) if m.id == second.id]
        return found[0] if found[0].status == "cancelled" else None

    wait_for(cancelled, STATE_TIMEOUT, "the live migration to be cancelled")
    stayed = settled(cloud, uuid, vm_states.ACTIVE)
    assert stayed.host == dest and stayed.power_state == 1
    assert stayed.fault is None or "cancel" not in stayed.fault.message
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    assert allocations(cloud, second.uuid) == {}
    assert cloud.guests_on(cloud.admin, dest, [uuid]) == [uuid]
    assert cloud.guests_on(cloud.admin, source, [uuid]) == []
