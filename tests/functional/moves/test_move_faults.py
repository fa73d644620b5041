"""A compute killed in the middle of a move: once it is back, the server is
in no task, the migration ended ``error`` and Placement holds one
allocation, the server's, where the server is."""

from __future__ import annotations

import signal

import pytest

from nova.states import task_states, vm_states
from tests.functional.api.conftest import ADMIN
from tests.functional.boot.deployment import wait_for
from tests.functional.moves.conftest import (
    FLAVORS,
    SMALL_RESOURCES,
    STATE_TIMEOUT,
    action,
    allocations,
    boot,
    instance,
    migration_ended,
    migrations,
    provider,
    resources,
    settled,
)

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


@pytest.mark.parametrize("fake_driver_options", [{"spawn_seconds": 6}], indirect=True)
def test_the_destination_killed_during_finish_resize(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    response = action(cloud, uuid, {"resize": {"flavorRef": "medium"}})
    assert response.status_code == 202, response.text

    def finishing():
        found = instance(cloud, uuid)
        return found.task_state == task_states.RESIZE_FINISH

    wait_for(finishing, STATE_TIMEOUT, "the destination to make the guest")
    cloud.signal(dest, signal.SIGKILL)
    cloud.restart(dest)

    failed = settled(cloud, uuid, vm_states.ERROR)
    migration = migration_ended(cloud, uuid, "error")
    assert failed.host == dest
    assert "restarted during the resize" in failed.fault.message
    assert allocations(cloud, uuid) == {
        provider(cloud, dest): resources(FLAVORS["medium"])
    }
    assert allocations(cloud, migration.uuid) == {}
    # Nothing of the server or its migration is left on the source.
    held = cloud.placement.get_allocations_for_provider(provider(cloud, source))
    assert set(held) & {uuid, migration.uuid} == set()


@pytest.mark.parametrize("fake_driver_options", [{"spawn_seconds": 6}], indirect=True)
def test_the_source_killed_during_a_live_migration(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host

    body = {"os-migrateLive": {"block_migration": "auto", "host": None}}
    response = action(cloud, uuid, body, token=ADMIN, version="2.68")
    assert response.status_code == 202, response.text

    def running():
        found = migrations(cloud, uuid)
        return found and found[0].status == "running"

    wait_for(running, STATE_TIMEOUT, "the live migration to run")
    cloud.signal(source, signal.SIGKILL)
    cloud.restart(source)

    # The guest never left: the server stays on its source, no longer in
    # a task. (The fake hypervisor's guests die with its process, so the
    # power sync then finds it off: STOPPED, where a real guest runs on.)
    recovered = settled(cloud, uuid, vm_states.STOPPED)
    migration = migration_ended(cloud, uuid, "error")
    assert recovered.host == source
    assert "restarted during the live-migration" in recovered.fault.message
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}
