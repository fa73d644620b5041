"""Cold migration over the real services: admin only, to a named host
(2.56) or where the scheduler puts it (never its own host), listed in
os-migrations, then confirmed."""

from __future__ import annotations

import pytest

from nova.states import vm_states
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.moves.conftest import (
    SMALL_RESOURCES,
    action,
    allocations,
    boot,
    instance,
    migration_ended,
    provider,
    settled,
)

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


def test_cold_migrate_to_a_named_host_then_confirm(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    def refused(body, status, message, **kw):
        response = action(cloud, uuid, body, **kw)
        assert response.status_code == status, response.text
        assert message in fault(response)[2]

    refused({"migrate": None}, 403, "os-migrate-server:migrate")
    refused(
        {"migrate": {"host": source}},
        400,
        "Cannot migrate to the host where the server exists",
        token=ADMIN,
        version="2.56",
    )
    refused(
        {"migrate": {"host": "no-such-host"}},
        400,
        "no-such-host",
        token=ADMIN,
        version="2.56",
    )

    body = {"migrate": {"host": dest}}
    response = action(cloud, uuid, body, token=ADMIN, version="2.56")
    assert response.status_code == 202, response.text
    migrated = settled(cloud, uuid, vm_states.RESIZED)
    migration = migration_ended(cloud, uuid, "finished")

    assert migrated.host == dest and migrated.flavor.flavorid == "small"
    assert migration.migration_type == "migration"
    assert migration.old_instance_type_id == migration.new_instance_type_id
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {
        provider(cloud, source): SMALL_RESOURCES
    }
    listed = cloud.api.get(
        f"/v2.1/os-migrations?instance_uuid={uuid}", token=ADMIN, version="2.80"
    ).json()["migrations"]
    assert [
        (m["uuid"], m["migration_type"], m["status"], m["source_compute"])
        for m in listed
    ] == [(migration.uuid, "migration", "finished", source)]
    assert listed[0]["dest_compute"] == dest
    # 2.80: who started it (the admin), not the server's owner.
    assert (listed[0]["user_id"], listed[0]["project_id"]) == ("admin", "admin")
    # A server's own migrations list the live ones in progress only.
    response = cloud.api.get(
        f"/v2.1/servers/{uuid}/migrations", token=ADMIN, version="2.23"
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"migrations": []}
    response = cloud.api.get(
        f"/v2.1/servers/{uuid}/migrations/{migration.id}", token=ADMIN, version="2.23"
    )
    assert response.status_code == 404, response.text
    assert "is not live-migration" in fault(response)[2]

    response = action(cloud, uuid, {"confirmResize": None})
    assert response.status_code == 204, response.text
    settled(cloud, uuid, vm_states.ACTIVE)
    migration_ended(cloud, uuid, "confirmed")
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}


def test_cold_migrate_without_a_host_leaves_the_source(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host

    response = action(cloud, uuid, {"migrate": None}, token=ADMIN)
    assert response.status_code == 202, response.text
    migrated = settled(cloud, uuid, vm_states.RESIZED)

    assert migrated.host != source
    response = action(cloud, uuid, {"revertResize": None})
    assert response.status_code == 202, response.text
    reverted = settled(cloud, uuid, vm_states.ACTIVE)
    migration = migration_ended(cloud, uuid, "reverted")
    assert reverted.host == source
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}
