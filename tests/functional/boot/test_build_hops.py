"""The hops of a build: the superconductor casts it straight to the chosen
compute, on its cell's queue, not through the cell conductor.

The superconductor, the scheduler and a compute run as processes on real
RabbitMQ vhosts, real Placement and SQLite databases; cell1's conductor
runs in this process, which otherwise plays nova-api, so that the test can
watch its relay endpoint.
"""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects, rpc, service
from nova.conf import CONF
from nova.states import task_states, vm_states
from tests.fixtures.placement import make_client
from tests.functional.boot.deployment import flavor

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


@pytest.fixture
def cell_conductor(deployment):
    """cell1's conductor in this process: consuming cell1's queue and
    holding cell1's database, as its own configuration would say."""
    CONF.set_override("transport_url", deployment.cell1_transport_url)
    CONF.set_override("connection", deployment.cell1_db, group="database")
    conductor = service.Service.create(
        "nova-conductor",
        "conductor",
        host=f"cell1-conductor-{uuidutils.generate_uuid()[:8]}",
        periodic_enable=False,
    )
    conductor.start()
    yield conductor
    conductor.stop(timeout=10)


@pytest.fixture
def relayed(cell_conductor, monkeypatch) -> list[str]:
    """The instances the cell conductor relayed a build of to a compute."""
    endpoint = cell_conductor.manager.compute_task_mgr
    relay = endpoint.build_and_run_instance
    calls = []

    def spy(context, instance, *args, **kwargs):
        calls.append(instance.uuid)
        return relay(context, instance, *args, **kwargs)

    monkeypatch.setattr(endpoint, "build_and_run_instance", spy)
    return calls


class OlderSuperconductor(rpc.RPCAPI):
    """A superconductor of conductor RPC 1.0-1.2, which relayed each
    scheduled build through the cell conductor."""

    TOPIC = "conductor"
    NAMESPACE = "compute_task"
    VERSION = "1.0"
    UPGRADE_LEVEL = "conductor"

    def build_and_run_instance(self, cctxt, instance, host: str, image) -> None:
        self.prepare(cctxt, version="1.0").cast(
            cctxt,
            "build_and_run_instance",
            instance=instance,
            host=host,
            image=image,
            request_spec=None,
            filter_properties={},
            admin_password="older-password",
            injected_files=[],
            requested_networks="none",
            security_groups=None,
            block_device_mapping=None,
            node=host,
            limits=None,
            host_list=None,
        )


def _scheduled_by_hand(deployment, placement, user, host: str):
    """An instance in cell1 with its resources claimed on ``host``, as a
    superconductor leaves it before it hands the build over."""
    admin = nova_context.get_admin_context()
    m1 = flavor("m1", memory_mb=256)
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        [node] = objects.ComputeNodeList.get_all_by_host(cctxt, host)
        instance = objects.Instance(
            cctxt,
            project_id=user.project_id,
            user_id=user.user_id,
            display_name="relayed",
            vm_state=vm_states.BUILDING,
            task_state=task_states.SCHEDULING,
            flavor=m1,
            memory_mb=m1.memory_mb,
            vcpus=m1.vcpus,
            root_gb=m1.root_gb,
        )
        instance.create()
        objects.InstanceAction.action_start(
            cctxt, instance.uuid, "create", want_result=False
        )
    objects.InstanceMapping(
        admin,
        instance_uuid=instance.uuid,
        project_id=user.project_id,
        user_id=user.user_id,
        cell_mapping=deployment.cell1,
    ).create()
    assert placement.claim_resources(
        instance.uuid,
        {"allocations": {node.uuid: {"resources": {"VCPU": 1, "MEMORY_MB": 256}}}},
        user.project_id,
        user.user_id,
    )
    return instance, cctxt


def test_the_superconductor_casts_the_build_to_the_compute(
    deployment, cell_conductor, relayed, placement_endpoint
):
    api_conf = deployment.directory / "nova.conf"
    cell_conf = deployment.directory / "nova-cell1.conf"
    host = f"hop-{uuidutils.generate_uuid()[:8]}"
    deployment.hosts = [host]
    deployment.start("superconductor", "conductor", api_conf)
    deployment.start("scheduler", "scheduler", api_conf)
    deployment.start(
        host,
        "compute",
        cell_conf,
        deployment.compute_config(host, vcpus=8, memory_mb=4096, local_gb=50),
    )
    admin = nova_context.get_admin_context()
    deployment.wait_for_computes(admin)
    user = nova_context.RequestContext(
        user_id="demo",
        project_id=uuidutils.generate_uuid(),
        roles=["member"],
        overwrite=False,
    )
    # This process is cell1's conductor now: what it sends as nova-api goes
    # to the API-level queue explicitly.
    user.transport_url = deployment.api_transport_url

    uuids = deployment.boot(user, flavor("m1", memory_mb=256), count=2, name="hop")
    found = deployment.wait_for_states(
        admin, uuids, {vm_states.ACTIVE, vm_states.ERROR}
    )
    assert {i.vm_state for _, i in found.values()} == {vm_states.ACTIVE}
    assert {i.host for _, i in found.values()} == {host}
    # Built, with the compute's object calls served by this conductor, and
    # never relayed by it.
    assert relayed == []

    # An older superconductor's relay is still served, into the new compute.
    placement = make_client(placement_endpoint)
    instance, cctxt = _scheduled_by_hand(deployment, placement, user, host)
    OlderSuperconductor().build_and_run_instance(
        cctxt, instance, host, image={"id": uuidutils.generate_uuid()}
    )
    _, built = deployment.wait_for_states(
        admin, [instance.uuid], {vm_states.ACTIVE, vm_states.ERROR}
    )[instance.uuid]
    assert built.vm_state == vm_states.ACTIVE, built.fault
    assert built.host == host
    assert relayed == [instance.uuid]
