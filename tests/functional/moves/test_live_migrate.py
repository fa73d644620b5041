"""Live migration over the real services (fake driver): the server keeps
running (or paused) and moves; the migration ends ``completed`` with only
the server's allocation left, on the destination."""

from __future__ import annotations

import pytest

from nova.states import vm_states
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.boot.deployment import wait_for
from tests.functional.moves.conftest import (
    SMALL_RESOURCES,
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
]


def test_live_migrate_a_running_then_a_paused_server(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    body = {"os-migrateLive": {"block_migration": "auto", "host": None}}
    response = action(cloud, uuid, body, version="2.68")
    assert response.status_code == 403, response.text
    response = action(cloud, uuid, body, token=ADMIN, version="2.24")
    assert response.status_code == 400, response.text
    response = action(
        cloud,
        uuid,
        {"os-migrateLive": {"block_migration": "auto", "host": source}},
        token=ADMIN,
        version="2.68",
    )
    assert response.status_code == 400, response.text
    assert "Cannot migrate to the host where the server exists" in fault(response)[2]

    response = action(cloud, uuid, body, token=ADMIN, version="2.68")
    assert response.status_code == 202, response.text
    migration = migration_ended(cloud, uuid, "completed")
    moved = settled(cloud, uuid, vm_states.ACTIVE)

    assert moved.host == dest and moved.power_state == 1
    assert migration.migration_type == "live-migration"
    assert (migration.source_compute, migration.dest_compute) == (source, dest)
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}
    guests = cloud.guests_on(cloud.admin, dest, [uuid])
    assert guests == [uuid]
    assert cloud.guests_on(cloud.admin, source, [uuid]) == []
    # Over: not among the server's migrations in progress.
    response = cloud.api.get(
        f"/v2.1/servers/{uuid}/migrations/{migration.id}", token=ADMIN, version="2.80"
    )
    assert response.status_code == 404, response.text
    assert "is not in progress" in fault(response)[2]
    response = cloud.api.get(
        f"/v2.1/servers/{uuid}/migrations", token=ADMIN, version="2.80"
    )
    assert response.json() == {"migrations": []}

    # A paused server stays paused, back on the first host (2.1 body).
    assert action(cloud, uuid, {"pause": None}).status_code == 202
    settled(cloud, uuid, vm_states.PAUSED)
    body = {
        "os-migrateLive": {
            "block_migration": False,
            "disk_over_commit": False,
            "host": source,
        }
    }
    response = action(cloud, uuid, body, token=ADMIN)
    assert response.status_code == 202, response.text

    def moved_back():
        found = settled(cloud, uuid, vm_states.PAUSED)
        return found if found.host == source else None

    back = wait_for(moved_back, 60, "the server to be back on its first host")
    assert back.power_state == 3
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}


def test_a_forced_host_skips_the_scheduler_but_is_claimed(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    def live_migrate(body, version):
        return action(
            cloud, uuid, {"os-migrateLive": body}, token=ADMIN, version=version
        )

    response = live_migrate(
        {"block_migration": "auto", "host": None, "force": True}, "2.30"
    )
    assert response.status_code == 400, response.text
    assert "non-provided destination" in fault(response)[2]
    response = live_migrate(
        {"block_migration": "auto", "host": dest, "force": True}, "2.68"
    )
    assert response.status_code == 400, response.text

    # The scheduler takes no disabled host ...
    response = cloud.api.put(
        "/v2.1/os-services/disable",
        {"host": dest, "binary": "nova-compute"},
        token=ADMIN,
    )
    assert response.status_code == 200, response.text
    response = live_migrate({"block_migration": "auto", "host": dest}, "2.30")
    assert response.status_code == 202, response.text
    migration_ended(cloud, uuid, "error")
    stayed = settled(cloud, uuid, vm_states.ACTIVE)
    assert stayed.host == source
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}

    # ... which a forced one does not ask.
    body = {"block_migration": "auto", "host": dest, "force": True}
    response = live_migrate(body, "2.30")
    assert response.status_code == 202, response.text

    def completed():
        listed = [m for m in migrations(cloud, uuid) if m.status == "completed"]
        return listed[0] if listed else None

    migration = wait_for(completed, 60, "the forced live migration to complete")
    moved = settled(cloud, uuid, vm_states.ACTIVE)
    assert moved.host == dest
    assert migration.dest_compute == dest
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}
