"""Evacuation over the real services: refused while the source compute is
up, then, the source killed and forced down, the server is rebuilt on the
other compute, by the scheduler or on the host an admin forced. The
instance holds both hosts in Placement until the source compute comes
back and cleans up; the migration ends ``done``, then ``completed``."""

from __future__ import annotations

import signal

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


def _refused(cloud, uuid, body, status, message, version="2.68", **kw):
    response = action(cloud, uuid, body, version=version, **kw)
    assert response.status_code == status, response.text
    assert message in fault(response)[2]


def _force_down(cloud, host: str) -> None:
    """Freeze the host's nova-compute (it stays a process of the
    deployment, which checks that none exited) and say it is down, as an
    operator fencing it does (2.11)."""
    cloud.signal(host, signal.SIGSTOP)
    response = cloud.api.put(
        "/v2.1/os-services/force-down",
        {"host": host, "binary": "nova-compute", "forced_down": True},
        token=ADMIN,
        version="2.11",
    )
    assert response.status_code == 200, response.text


def _bring_back(cloud, host: str) -> None:
    """The host's nova-compute starts again, as after a reboot."""
    cloud.signal(host, signal.SIGKILL)
    cloud.restart(host)
    response = cloud.api.put(
        "/v2.1/os-services/force-down",
        {"host": host, "binary": "nova-compute", "forced_down": False},
        token=ADMIN,
        version="2.11",
    )
    assert response.status_code == 200, response.text


def test_evacuate_where_the_scheduler_puts_it_then_the_source_cleans_up(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    _refused(cloud, uuid, {"evacuate": {}}, 403, "os-evacuate")
    _refused(
        cloud, uuid, {"evacuate": {}}, 400, f"{source} is still in use", token=ADMIN
    )
    _force_down(cloud, source)

    # 2.95: the evacuated server is stopped.
    response = action(cloud, uuid, {"evacuate": {}}, token=ADMIN, version="2.95")
    assert response.status_code == 200, response.text
    assert response.content == b""
    evacuated = settled(cloud, uuid, vm_states.STOPPED)
    migration = migration_ended(cloud, uuid, "done")
    assert evacuated.host == dest
    assert migration.migration_type == "evacuation"
    assert (migration.source_compute, migration.dest_compute) == (source, dest)
    # Until the source is back, the instance holds both hosts.
    assert allocations(cloud, uuid) == {
        provider(cloud, source): SMALL_RESOURCES,
        provider(cloud, dest): SMALL_RESOURCES,
    }
    actions = cloud.api.get(f"/v2.1/servers/{uuid}/os-instance-actions").json()
    assert actions["instanceActions"][0]["action"] == "evacuate"

    _bring_back(cloud, source)
    migration_ended(cloud, uuid, "completed")
    assert allocations(cloud, uuid) == {provider(cloud, dest): SMALL_RESOURCES}
    assert instance(cloud, uuid).host == dest
    assert cloud.guests_on(cloud.admin, source, [uuid]) == []


def test_evacuate_to_a_forced_host(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    _refused(
        cloud, uuid, {"evacuate": {"host": "no-such-host"}}, 404, "no-such-host",
        token=ADMIN,
    )  # fmt: skip
    _refused(
        cloud, uuid, {"evacuate": {"host": source}}, 400, "can't be the same",
        token=ADMIN,
    )  # fmt: skip
    _refused(
        cloud, uuid, {"evacuate": {"force": True}}, 400, "non-provided destination",
        token=ADMIN, version="2.29",
    )  # fmt: skip
    _refused(
        cloud, uuid, {"evacuate": {"onSharedStorage": True, "adminPass": "pw"}},
        400, "admin password can't be changed", token=ADMIN, version="2.1",
    )  # fmt: skip
    # force is gone in 2.68.
    _refused(
        cloud, uuid, {"evacuate": {"host": dest, "force": True}}, 400, "force",
        token=ADMIN,
    )  # fmt: skip
    _force_down(cloud, source)

    body = {"evacuate": {"host": dest, "force": True, "adminPass": "s3cret-pw"}}
    response = action(cloud, uuid, body, token=ADMIN, version="2.29")
    assert response.status_code == 200, response.text
    evacuated = settled(cloud, uuid, vm_states.ACTIVE)
    migration = migration_ended(cloud, uuid, "done")
    assert evacuated.host == dest
    assert migration.dest_compute == dest
    assert allocations(cloud, uuid) == {
        provider(cloud, source): SMALL_RESOURCES,
        provider(cloud, dest): SMALL_RESOURCES,
    }
    assert cloud.guests_on(cloud.admin, dest, [uuid]) == [uuid]
