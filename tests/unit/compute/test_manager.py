"""The compute manager's state transitions, with the fake driver, a SQLite
cell database and the real Placement (no conductor: objects hit the
database directly here)."""

import pytest
from oslo_utils import uuidutils

from nova import context, exception, objects, placement
from nova.compute import manager as compute_manager
from nova.compute.resource_tracker import inventory_of
from nova.conf import CONF
from nova.db import engines
from nova.db.main import models
from nova.states import power_state, task_states, vm_states
from nova.virt import fake

objects.register_all()


@pytest.fixture
def compute(tmp_path, placement_client, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    models.BASE.metadata.create_all(engines.get_engine(url))
    CONF.set_override("connection", url, group="database")
    CONF.set_override("compute_driver", "fake.FakeDriver")
    CONF.set_override("vcpus", 8, group="fake_driver")
    CONF.set_override("memory_mb", 4096, group="fake_driver")
    CONF.set_override("cpu_allocation_ratio", 2.0)
    CONF.set_override("reserved_host_memory_mb", 256)
    # One build at a time: a task queued after a build runs after it.
    CONF.set_override("max_concurrent_builds", 1)
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    host = f"compute-{uuidutils.generate_uuid()[:8]}"
    ctxt = context.get_admin_context()
    service = objects.Service(ctxt, host=host, binary="nova-compute", topic="compute")
    service.create()
    manager = compute_manager.ComputeManager(host)
    manager.init_host(service)
    yield manager
    manager.cleanup_host()
    for name in (
        "compute_driver",
        "cpu_allocation_ratio",
        "reserved_host_memory_mb",
        "max_concurrent_builds",
    ):
        CONF.clear_override(name)
    for name in ("vcpus", "memory_mb"):
        CONF.clear_override(name, group="fake_driver")
    CONF.clear_override("connection", group="database")
    engines.dispose(url)


def _flavor():
    return objects.Flavor(
        id=1,
        flavorid="f1",
        name="f1",
        memory_mb=512,
        vcpus=2,
        root_gb=1,
        ephemeral_gb=0,
        swap=0,
        extra_specs={},
    )


def _scheduled_instance(manager, placement_client, ctxt):
    """An instance as the superconductor hands it over: created in the cell,
    its resources claimed on the host's provider, a create action."""
    instance = objects.Instance(
        ctxt,
        project_id="p1",
        user_id="u1",
        vm_state=vm_states.BUILDING,
        task_state=task_states.SCHEDULING,
        flavor=_flavor(),
    )
    instance.create()
    node = manager.rt.compute_nodes[manager.host]
    claimed = placement_client.claim_resources(
        instance.uuid,
        {"allocations": {node.uuid: {"resources": {"VCPU": 2, "MEMORY_MB": 512}}}},
        "p1",
        "u1",
    )
    assert claimed
    objects.InstanceAction.action_start(
        ctxt, instance.uuid, "create", want_result=False
    )
    return instance


def _build(manager, ctxt, instance, **build_kwargs):
    """Build as compute RPC 1.9 sends it, or with ``build_kwargs`` as a
    sender older than 1.9 does."""
    if not build_kwargs:
        parameters = objects.BuildParameters(image={"id": uuidutils.generate_uuid()})
        build_kwargs = {"build_parameters": parameters}
    manager.build_and_run_instance(
        ctxt, instance, request_spec=None, node=manager.host, **build_kwargs
    )
    # The build pool has one thread: this runs once the build is over.
    manager.build.builds.submit(lambda: None).result(timeout=30)


def _events(ctxt, uuid):
    action = objects.InstanceActionList.get_by_instance_uuid(ctxt, uuid)[0]
    return [
        (e.event, e.result)
        for e in objects.InstanceActionEventList.get_by_action(ctxt, action.id)
    ]


def test_start_reports_the_node_and_its_inventory(compute, placement_client):
    node = compute.rt.compute_nodes[compute.host]
    assert (node.vcpus, node.memory_mb, node.hypervisor_type) == (8, 4096, "fake")
    assert node.cpu_allocation_ratio == 2.0
    assert node.ram_allocation_ratio == CONF.initial_ram_allocation_ratio
    provider = placement_client.get_provider(node.uuid)
    assert provider.name == compute.host
    inventory = placement_client.get_inventory(node.uuid).inventories
    assert inventory["VCPU"]["total"] == 8
    assert inventory["VCPU"]["allocation_ratio"] == 2.0
    assert inventory["MEMORY_MB"]["reserved"] == 256
    assert set(inventory) == set(inventory_of(node))


def test_build_makes_the_instance_active(compute, placement_client):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    _build(compute, ctxt, instance)
    built = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert (built.vm_state, built.task_state) == (vm_states.ACTIVE, None)
    assert built.power_state == power_state.RUNNING
    assert (built.host, built.node, built.launched_on) == (compute.host,) * 3
    assert built.launched_at is not None
    assert built.compute_id == compute.rt.compute_nodes[compute.host].id
    assert compute.driver.list_instance_uuids() == [instance.uuid]
    assert _events(ctxt, instance.uuid) == [
        ("compute_build_and_run_instance", "Success")
    ]
    # Usage is recounted by the periodic task, not after each build.
    compute.host_flow.update_available_resource(ctxt)
    node = objects.ComputeNode.get_by_host_and_nodename(
        ctxt, compute.host, compute.host
    )
    assert (node.vcpus_used, node.running_vms) == (2, 1)


def test_an_older_senders_build_arguments_still_build(
    compute, placement_client, monkeypatch
):
    spawned = {}
    original = fake.FakeDriver.spawn

    def spawn(self, context, instance, image_meta, injected_files, admin_password,
              *args, **kwargs):  # fmt: skip
        spawned.update(image=image_meta.id, password=admin_password)
        original(self, context, instance, image_meta, injected_files,
                 admin_password, *args, **kwargs)  # fmt: skip

    monkeypatch.setattr(fake.FakeDriver, "spawn", spawn)
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    image_id = uuidutils.generate_uuid()
    # Compute RPC 1.0: the build's parameters one by one.
    _build(
        compute,
        ctxt,
        instance,
        image={"id": image_id},
        filter_properties={},
        admin_password="pw-of-1.0",
        injected_files=None,
        requested_networks="none",
        security_groups=None,
        block_device_mapping=None,
        limits=None,
        host_list=None,
    )
    built = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert (built.vm_state, built.task_state) == (vm_states.ACTIVE, None)
    assert spawned == {"image": image_id, "password": "pw-of-1.0"}


def test_failed_build_ends_in_error_without_allocations(
    compute, placement_client, monkeypatch
):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)

    def spawn(*args, **kwargs):
        raise exception.InvalidInput(reason="the image is not bootable")

    monkeypatch.setattr(fake.FakeDriver, "spawn", spawn)
    _build(compute, ctxt, instance)
    failed = objects.Instance.get_by_uuid(ctxt, instance.uuid, expected_attrs=["fault"])
    assert (failed.vm_state, failed.task_state) == (vm_states.ERROR, None)
    assert "the image is not bootable" in failed.fault.message
    assert failed.fault.host == compute.host
    assert (
        placement_client.get_allocations_for_consumer(instance.uuid).allocations == {}
    )
    assert _events(ctxt, instance.uuid) == [("compute_build_and_run_instance", "Error")]


def test_build_of_an_instance_being_deleted_stops(compute, placement_client):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    deleting = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    deleting.task_state = task_states.DELETING
    deleting.save()
    _build(compute, ctxt, instance)
    assert compute.driver.list_instance_uuids() == []
    assert (
        placement_client.get_allocations_for_consumer(instance.uuid).allocations == {}
    )
    left = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    assert left.task_state == task_states.DELETING


def test_terminate_deletes_guest_allocations_and_record(compute, placement_client):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, placement_client, ctxt)
    _build(compute, ctxt, instance)
    instance = objects.Instance.get_by_uuid(ctxt, instance.uuid)
    instance.task_state = task_states.DELETING
    instance.save()
    compute.terminate_instance(ctxt, instance, None)
    assert compute.driver.list_instance_uuids() == []
    assert (
        placement_client.get_allocations_for_consumer(instance.uuid).allocations == {}
    )
    gone = objects.Instance.get_by_uuid(
        ctxt.elevated(read_deleted="yes"), instance.uuid
    )
    assert gone.deleted and gone.vm_state == vm_states.DELETED
    assert gone.terminated_at is not None
    # Terminating again (a retried message) is harmless.
    compute.terminate_instance(ctxt, instance, None)


def test_restart_settles_interrupted_work(compute, placement_client):
    ctxt = context.get_admin_context()
    building = _scheduled_instance(compute, placement_client, ctxt)
    building.host = compute.host
    building.task_state = task_states.SPAWNING
    building.save()
    deleting = _scheduled_instance(compute, placement_client, ctxt)
    deleting.host = compute.host
    deleting.vm_state = vm_states.ACTIVE
    deleting.task_state = task_states.DELETING
    deleting.save()

    compute.recovery.recover_instances(ctxt)

    failed = objects.Instance.get_by_uuid(ctxt, building.uuid, expected_attrs=["fault"])
    assert failed.vm_state == vm_states.ERROR
    assert "restarted during the build" in failed.fault.message
    with pytest.raises(exception.InstanceNotFound):
        objects.Instance.get_by_uuid(ctxt, deleting.uuid)
    for uuid in (building.uuid, deleting.uuid):
        assert placement_client.get_allocations_for_consumer(uuid).allocations == {}
