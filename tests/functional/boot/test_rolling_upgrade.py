"""A rolling upgrade of the computes: the controller caps compute RPC one
version back, explicitly or because ``[upgrade_levels] compute = auto``
finds a nova-compute whose recorded service version is one behind, and a
server still boots, stops and is deleted.

Conductors, scheduler and computes are separate processes on real RabbitMQ
vhosts, with real Placement and a real database; this test process plays
nova-api (the compute API layer below the HTTP handlers) with the same cap.
Over the cap a client sends the older form of a message (the build) or
refuses it; a message the computes could not handle would leave the server
short of its state.
"""

from __future__ import annotations

import signal

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects, upgrade_levels
from nova.compute import rpcapi as compute_rpcapi
from nova.compute.api import delete as delete_api
from nova.compute.api import power as power_api
from nova.compute.api import servers as server_api
from nova.conf import CONF
from nova.objects import service as service_obj
from nova.states import power_state, vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor as make_flavor
from tests.functional.boot.deployment import member_context, wait_for

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]

NEWEST = service_obj.SERVICE_VERSION
PREVIOUS = NEWEST - 1
PREVIOUS_COMPUTE_RPC = service_obj.SERVICE_VERSION_HISTORY[PREVIOUS]["compute_rpc"]


@pytest.fixture(scope="module", autouse=True)
def parsed_conf():
    # The compute API authorizes: policy files are looked up through CONF.
    CONF([], project="nova", default_config_files=[])


@pytest.fixture
def compute_cap(request) -> str:
    return request.param


@pytest.fixture
def common_options(compute_cap) -> dict:
    return {"upgrade_levels": {"compute": compute_cap}}


@pytest.fixture
def capped_api(deployment, compute_cap):
    """This process, as nova-api, capped like the daemons."""
    CONF.set_override("compute", compute_cap, group="upgrade_levels")
    upgrade_levels.reset()
    yield
    upgrade_levels.reset()
    CONF.clear_override("compute", group="upgrade_levels")


def _settled(deployment, admin, uuid, vm_state, power):
    def done():
        found = deployment.find_instance(admin, uuid)
        instance = found[1] if found else None
        if instance is not None and instance.vm_state == vm_state:
            if instance.task_state is None and instance.power_state == power:
                return instance
        return None

    return wait_for(done, 60, f"{uuid} {vm_state}/{power}")


def _boot_stop_delete(deployment, placement, name: str) -> None:
    admin = nova_context.get_admin_context()
    user = member_context()
    servers = server_api.ServersAPI()
    (uuid,) = deployment.boot(user, make_flavor(name, memory_mb=256), name=name)
    found = deployment.wait_for_states(
        admin, [uuid], {vm_states.ACTIVE, vm_states.ERROR}
    )
    _, instance = found[uuid]
    assert instance.vm_state == vm_states.ACTIVE, instance.fault
    assert placement.get_usages(user.project_id) == {
        "VCPU": 1,
        "MEMORY_MB": 256,
        "DISK_GB": 1,
    }

    power_api.PowerAPI().stop(user, servers.get(user, uuid))
    _settled(deployment, admin, uuid, vm_states.STOPPED, power_state.SHUTDOWN)

    delete_api.DeleteAPI().delete(user, servers.get(user, uuid))

    def gone():
        found = deployment.find_instance(admin, uuid)
        return found is not None and found[1].deleted

    wait_for(gone, 60, f"{uuid} deleted")
    assert placement.get_usages(user.project_id) in (
        {},
        {"VCPU": 0, "MEMORY_MB": 0, "DISK_GB": 0},
    )


@pytest.mark.parametrize("compute_cap", [PREVIOUS_COMPUTE_RPC], indirect=True)
def test_capped_one_version_back_boots_stops_and_deletes(
    deployment, capped_api, placement_endpoint
):
    deployment.start_all([f"old-{uuidutils.generate_uuid()[:8]}"])
    deployment.wait_for_computes(nova_context.get_admin_context())
    assert compute_rpcapi.ComputeAPI().version_cap == PREVIOUS_COMPUTE_RPC
    _boot_stop_delete(deployment, make_client(placement_endpoint), "capped")


def _record_version(deployment, host: str, version: int) -> None:
    admin = nova_context.get_admin_context()
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        service = objects.Service.get_by_compute_host(cctxt, host)
        service.version = version
        service.save()


@pytest.mark.parametrize("compute_cap", ["auto"], indirect=True)
def test_auto_follows_the_oldest_compute_and_sighup(
    deployment, capped_api, placement_endpoint
):
    admin = nova_context.get_admin_context()
    suffix = uuidutils.generate_uuid()[:8]
    deployment.start_all([f"new-{suffix}", f"old-{suffix}"])
    deployment.wait_for_computes(admin)
    _, old = deployment.hosts
    # Both computes recorded this code's version when they started.
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        for host in deployment.hosts:
            service = objects.Service.get_by_compute_host(cctxt, host)
            assert service.version == NEWEST
    # One compute is "still" one release behind.
    _record_version(deployment, old, PREVIOUS)
    assert compute_rpcapi.ComputeAPI().version_cap == PREVIOUS_COMPUTE_RPC
    placement = make_client(placement_endpoint)
    _boot_stop_delete(deployment, placement, "auto")
    selected = (
        f"Automatically selected compute RPC version {PREVIOUS_COMPUTE_RPC} "
        f"from minimum nova-compute service version {PREVIOUS}"
    )
    assert selected in deployment.log_tail("superconductor", lines=2000)

    # The old compute is upgraded; the controller keeps its cap until it
    # is told to look again.
    _record_version(deployment, old, NEWEST)
    assert compute_rpcapi.ComputeAPI().version_cap == PREVIOUS_COMPUTE_RPC
    deployment.processes["superconductor"].send_signal(signal.SIGHUP)
    wait_for(
        lambda: (
            "Reloading the configuration"
            in deployment.log_tail("superconductor", lines=2000)
        ),
        30,
        "the superconductor to reload its configuration",
    )
    upgrade_levels.reset()
    assert (
        compute_rpcapi.ComputeAPI().version_cap
        == service_obj.SERVICE_VERSION_HISTORY[NEWEST]["compute_rpc"]
    )
    _boot_stop_delete(deployment, placement, "upgraded")
    newest = (
        "Automatically selected compute RPC version "
        f"{service_obj.SERVICE_VERSION_HISTORY[NEWEST]['compute_rpc']} from minimum "
        f"nova-compute service version {NEWEST}"
    )
    wait_for(
        lambda: newest in deployment.log_tail("superconductor", lines=2000),
        30,
        "the superconductor to select the newest version",
    )
