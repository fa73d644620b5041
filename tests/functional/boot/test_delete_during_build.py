"""A server deleted while it is being built stays deleted and leaves
nothing behind: no allocation in Placement, no guest on any host.

A member creates a server and deletes it 0 to 0.6 s later, many times over,
so that the delete lands in every window of the build: before the conductor
reads the build request, while the scheduler claims, between the instance's
creation in its cell and the build request's retirement, before the compute
takes the instance, and while the guest spawns.

The superconductor, scheduler, cell conductor and two computes (fake driver,
each spawn taking a while) are separate processes on real RabbitMQ vhosts,
with real Placement and MariaDB; this test process plays nova-api (the
compute API's create and delete below the HTTP handlers).
"""

from __future__ import annotations

import concurrent.futures
import signal
import time

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import exception, objects
from nova import placement as nova_placement
from nova.compute.api import delete as delete_api
from nova.compute.api import servers as server_api
from nova.conf import CONF
from nova.states import vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor as make_flavor
from tests.functional.boot.deployment import wait_for

pytestmark = [pytest.mark.rabbitmq]

ROUNDS = 36
PARALLEL = 2
# Delays between the create and the delete, as fractions of the time one
# build takes here, so that they spread over it on a fast or a slow machine.
DELAY_FRACTIONS = [step / 10 for step in range(12)]
SPAWN_SECONDS = 0.5
# Servers deleted while their hosts are frozen.
FROZEN_SERVERS = 4


@pytest.fixture(scope="module", autouse=True)
def parsed_conf():
    # The compute API authorizes: policy files are looked up through CONF.
    CONF([], project="nova", default_config_files=[])


def _live_instance(deployment, admin, uuid):
    """The instance if it lives in a cell (not deleted), else None."""
    found = deployment.find_instance(admin, uuid)
    if found is None or found[1].deleted:
        return None
    return found[1]


def _build_request_left(admin, uuid) -> bool:
    try:
        objects.BuildRequest.get_by_instance_uuid(admin, uuid)
    except exception.BuildRequestNotFound:
        return False
    return True


@pytest.mark.parametrize("db_backend", ["mysql"], indirect=True)
def test_create_then_delete_during_build_leaks_nothing(
    deployment, placement_endpoint, monkeypatch
):
    admin = nova_context.get_admin_context()
    project = uuidutils.generate_uuid()
    user = nova_context.RequestContext(
        user_id="demo", project_id=project, roles=["member"], overwrite=False
    )
    placement = make_client(placement_endpoint)
    # As nova-api, this process gives back what it deletes in place.
    monkeypatch.setattr(nova_placement, "client", lambda: placement)
    servers = server_api.ServersAPI()
    deletes = delete_api.DeleteAPI()
    suffix = uuidutils.generate_uuid()[:8]
    deployment.start_all(
        [f"race-a-{suffix}", f"race-b-{suffix}"],
        vcpus=64,
        memory_mb=65536,
        local_gb=200,
        spawn_seconds=SPAWN_SECONDS,
    )
    deployment.wait_for_computes(admin)
    flavor = make_flavor("race", memory_mb=256)

    # How long one build takes on this machine now.
    started = time.monotonic()
    (first,) = deployment.boot(user, flavor, name="timing")
    deployment.wait_for_states(admin, [first], {vm_states.ACTIVE}, timeout=60)
    build_seconds = time.monotonic() - started
    deletes.delete(user, servers.get(user, first))

    def create_then_delete(round_number: int) -> str:
        (uuid,) = deployment.boot(user, flavor, name=f"race{round_number}")
        fraction = DELAY_FRACTIONS[round_number % len(DELAY_FRACTIONS)]
        time.sleep(build_seconds * fraction)
        deletes.delete(user, servers.get(user, uuid))
        return uuid

    with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
        uuids = [first, *pool.map(create_then_delete, range(ROUNDS))]

    # The window between the conductor's hand-over and the compute taking
    # the instance, held open: the computes are frozen while the servers
    # are created and deleted, their builds still queued for them.
    for host in deployment.hosts:
        deployment.processes[host].send_signal(signal.SIGSTOP)
    try:
        queued = deployment.boot(user, flavor, count=FROZEN_SERVERS, name="queued")
        wait_for(
            lambda: all(deployment.find_instance(admin, uuid) for uuid in queued),
            30,
            "the queued builds to reach their cell",
        )
        for uuid in queued:
            assert deployment.find_instance(admin, uuid)[1].host is None
            deletes.delete(user, servers.get(user, uuid))
    finally:
        for host in deployment.hosts:
            deployment.processes[host].send_signal(signal.SIGCONT)
    uuids += queued

    # Every delete was accepted: the servers are gone and stay gone.
    def settled():
        deployment.assert_running()
        return not any(
            _live_instance(deployment, admin, uuid) or _build_request_left(admin, uuid)
            for uuid in uuids
        )

    wait_for(settled, 60, "every deleted server to be gone")

    # The claims went back (a compute may still be cleaning up an aborted
    # build for a moment).
    def released():
        return placement.get_usages(project) in (
            {},
            {"VCPU": 0, "MEMORY_MB": 0, "DISK_GB": 0},
        )

    wait_for(released, 30, f"the allocations of {project} to be given back")
    for uuid in uuids:
        assert not placement.get_allocations_for_consumer(uuid).allocations, uuid

    # No host built a guest for a deleted server, and none came back.
    time.sleep(SPAWN_SECONDS * 4)
    for host in deployment.hosts:
        assert deployment.guests_on(admin, host, uuids) == [], host
    assert not any(_live_instance(deployment, admin, uuid) for uuid in uuids)

    # The deletes hit the build in its several windows: some before the
    # instance was in a cell, some after a host had taken it.
    reached_host = sum(
        1
        for uuid in uuids
        if (found := deployment.find_instance(admin, uuid)) and found[1].host
    )
    never_in_cell = sum(
        1 for uuid in uuids if deployment.find_instance(admin, uuid) is None
    )
    print(
        f"one build {build_seconds:.2f} s; {ROUNDS} deletes: {never_in_cell} "
        f"before the cell, {reached_host} on a host"
    )
    assert reached_host > 0
