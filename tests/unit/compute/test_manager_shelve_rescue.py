"""The compute manager's rescue and unrescue (and the rescue_timeout
periodic task), shelve, offload and unshelve (and the shelved_offload_time
periodic task), with the fake driver, real Placement and, for shelving,
the real Glance (see test_manager)."""

# Tests take test_manager's ``compute`` fixture as an argument of that name.
# ruff: noqa: F811

import datetime

import pytest
from oslo_utils import uuidutils

from nova import exception, objects
from nova.conf import CONF
from nova.states import power_state, task_states, vm_states
from tests.unit.compute.test_manager import compute  # noqa: F401  (fixture)
from tests.unit.compute.test_manager_images import images  # noqa: F401  (fixture)
from tests.unit.compute.test_manager_power import _active, _with_task

RESCUE_IMAGE = uuidutils.generate_uuid()


def _state(instance):
    instance.refresh()
    return instance.vm_state, instance.task_state, instance.power_state


def _guest(compute, instance):
    return compute.driver._guest(instance)


def test_rescue_then_unrescue(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    launched = instance.launched_at
    compute.rescue_instance(
        ctxt,
        _with_task(instance, task_states.RESCUING),
        rescue_password="s3cret",
        rescue_image_ref=RESCUE_IMAGE,
    )
    assert _state(instance) == (vm_states.RESCUED, None, power_state.RUNNING)
    assert _guest(compute, instance).rescue_image_ref == RESCUE_IMAGE
    # The rescue clock restarts.
    assert instance.launched_at > launched

    compute.unrescue_instance(ctxt, _with_task(instance, task_states.UNRESCUING))
    assert _state(instance) == (vm_states.ACTIVE, None, power_state.RUNNING)
    assert _guest(compute, instance).rescue_image_ref is None


def test_rescue_without_an_image_uses_the_instance_own(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    instance.image_ref = uuidutils.generate_uuid()
    instance.save()
    compute.rescue_instance(ctxt, _with_task(instance, task_states.RESCUING))
    assert _guest(compute, instance).rescue_image_ref == instance.image_ref


def test_rescue_of_a_stopped_instance_runs_the_rescue_guest(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    compute.stop_instance(ctxt, _with_task(instance, task_states.POWERING_OFF))
    assert _state(instance)[0] == vm_states.STOPPED
    compute.rescue_instance(
        ctxt,
        _with_task(instance, task_states.RESCUING),
        rescue_image_ref=RESCUE_IMAGE,
    )
    assert _state(instance) == (vm_states.RESCUED, None, power_state.RUNNING)


def test_failed_rescue_keeps_the_state_and_leaves_a_fault(
    compute, placement_client, monkeypatch
):
    ctxt, instance = _active(compute, placement_client)

    def broken(*args, **kwargs):
        raise exception.HypervisorUnavailable(reason="rescue broke")

    monkeypatch.setattr(compute.driver, "rescue", broken)
    compute.rescue_instance(
        ctxt, _with_task(instance, task_states.RESCUING), rescue_image_ref=RESCUE_IMAGE
    )
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "rescue broke" in faults[0].message


def _rescued(compute, placement_client, rescued_seconds_ago: int):
    ctxt, instance = _active(compute, placement_client)
    objects.InstanceAction.action_start(ctxt, instance.uuid, "rescue")
    compute.rescue_instance(
        ctxt, _with_task(instance, task_states.RESCUING), rescue_image_ref=RESCUE_IMAGE
    )
    instance.refresh()
    instance.launched_at = instance.launched_at.replace(tzinfo=None) - (
        datetime.timedelta(seconds=rescued_seconds_ago)
    )
    instance.save()
    return ctxt, instance


def test_rescue_timeout_unrescues_only_the_expired(compute, placement_client):
    CONF.set_override("rescue_timeout", 600)
    try:
        ctxt, expired = _rescued(compute, placement_client, 601)
        _, recent = _rescued(compute, placement_client, 10)
        names = [task.name for task in compute.periodic_tasks()]
        assert "poll_rescued_instances" in names
        compute.rescue.poll_rescued_instances(ctxt)
    finally:
        CONF.clear_override("rescue_timeout")
    assert _state(expired) == (vm_states.ACTIVE, None, power_state.RUNNING)
    assert _state(recent)[0] == vm_states.RESCUED
    actions = objects.InstanceActionList.get_by_instance_uuid(ctxt, expired.uuid)
    assert actions[0].action == "unrescue"


def test_rescue_timeout_zero_never_unrescues(compute, placement_client):
    ctxt, instance = _rescued(compute, placement_client, 10**6)
    assert "poll_rescued_instances" not in [t.name for t in compute.periodic_tasks()]
    compute.rescue.poll_rescued_instances(ctxt)
    assert _state(instance)[0] == vm_states.RESCUED


def test_restart_clears_an_interrupted_rescue(compute, placement_client):
    ctxt, instance = _active(compute, placement_client)
    _with_task(instance, task_states.RESCUING)
    compute.recovery.recover_instances(ctxt)
    assert _state(instance)[:2] == (vm_states.ACTIVE, None)


# -- shelve ---------------------------------------------------------------------


@pytest.fixture
def shelvable(compute, placement_client, images):
    """An ACTIVE instance with an image of its own in Glance, and the
    queued ``<name>-shelved`` image the API would have created."""
    ctxt, instance = _active(compute, placement_client)
    instance.image_ref = images.create(ctxt, {"name": "own"})["id"]
    instance.display_name = "srv"
    instance.save()
    image_id = images.create(ctxt, {"name": "srv-shelved"})["id"]
    objects.InstanceAction.action_start(ctxt, instance.uuid, "shelve")
    return ctxt, instance, image_id


def _shelve(compute, ctxt, instance, image_id, offload_time: int):
    CONF.set_override("shelved_offload_time", offload_time)
    try:
        compute.shelve_instance(
            ctxt, _with_task(instance, task_states.SHELVING), image_id
        )
    finally:
        CONF.clear_override("shelved_offload_time")
    instance.refresh()


def _usages(placement_client, instance):
    return placement_client.get_allocations_for_consumer(instance.uuid).allocations


def test_shelve_snapshots_and_stops(compute, placement_client, images, shelvable):
    ctxt, instance, image_id = shelvable
    _shelve(compute, ctxt, instance, image_id, offload_time=-1)
    assert (instance.vm_state, instance.task_state, instance.power_state) == (
        vm_states.SHELVED,
        None,
        power_state.SHUTDOWN,
    )
    assert images.show(ctxt, image_id)["status"] == "active"
    sysmeta = instance.system_metadata
    assert sysmeta["shelved_image_id"] == image_id
    assert sysmeta["shelved_host"] == compute.host
    # Not offloaded: the host keeps the guest and its resources.
    assert instance.host == compute.host
    assert _usages(placement_client, instance)

    # Unshelving a SHELVED server starts it and drops the image.
    compute.start_instance(ctxt, _with_task(instance, task_states.POWERING_ON))
    assert _state(instance) == (vm_states.ACTIVE, None, power_state.RUNNING)
    assert "shelved_image_id" not in instance.system_metadata
    with pytest.raises(exception.ImageNotFound):
        images.show(ctxt, image_id)


def test_shelve_offloads_at_once_with_offload_time_zero(
    compute, placement_client, shelvable
):
    ctxt, instance, image_id = shelvable
    _shelve(compute, ctxt, instance, image_id, offload_time=0)
    assert (instance.vm_state, instance.task_state, instance.power_state) == (
        vm_states.SHELVED_OFFLOADED,
        None,
        power_state.NOSTATE,
    )
    assert (instance.host, instance.node) == (None, None)
    assert _usages(placement_client, instance) == {}
    with pytest.raises(exception.InstanceNotFound):
        compute.driver.get_info(instance)
    action = objects.InstanceActionList.get_by_instance_uuid(ctxt, instance.uuid)[0]
    events = objects.InstanceActionEventList.get_by_action(ctxt, action.id)
    assert [(e.event, e.result) for e in events] == [
        ("compute_shelve_instance", "Success"),
        ("compute_shelve_offload_instance", "Success"),
    ]


def test_periodic_task_offloads_after_the_offload_time(
    compute, placement_client, shelvable
):
    ctxt, instance, image_id = shelvable
    _shelve(compute, ctxt, instance, image_id, offload_time=-1)
    CONF.set_override("shelved_offload_time", 3600)
    try:
        assert "poll_shelved_instances" in [t.name for t in compute.periodic_tasks()]
        compute.images.poll_shelved_instances(ctxt)
        assert _state(instance)[0] == vm_states.SHELVED  # not an hour yet
        sysmeta = dict(instance.system_metadata)
        sysmeta["shelved_at"] = (
            datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
            - datetime.timedelta(seconds=3601)
        ).isoformat()
        instance.system_metadata = sysmeta
        instance.save()
        compute.images.poll_shelved_instances(ctxt)
    finally:
        CONF.clear_override("shelved_offload_time")
    assert _state(instance)[0] == vm_states.SHELVED_OFFLOADED
    assert _usages(placement_client, instance) == {}


def _offloaded(compute, shelvable):
    ctxt, instance, image_id = shelvable
    _shelve(compute, ctxt, instance, image_id, offload_time=0)
    return ctxt, instance, image_id


def _claim(compute, placement_client, instance):
    """What the scheduler does for an unshelve: claim on this host."""
    node = compute.rt.compute_nodes[compute.host]
    assert placement_client.claim_resources(
        instance.uuid,
        {"allocations": {node.uuid: {"resources": {"VCPU": 2, "MEMORY_MB": 512}}}},
        "p1",
        "u1",
    )


def test_unshelve_spawns_from_the_shelved_image_then_deletes_it(
    compute, placement_client, images, shelvable
):
    ctxt, instance, image_id = _offloaded(compute, shelvable)
    own_image = instance.image_ref
    _claim(compute, placement_client, instance)
    compute.unshelve_instance(
        ctxt,
        _with_task(instance, task_states.UNSHELVING),
        {"id": image_id},
        node=compute.host,
    )
    assert _state(instance) == (vm_states.ACTIVE, None, power_state.RUNNING)
    assert instance.host == compute.host
    assert instance.image_ref == own_image
    assert not {"shelved_image_id", "shelved_at", "shelved_host"} & set(
        instance.system_metadata
    )
    with pytest.raises(exception.ImageNotFound):
        images.show(ctxt, image_id)


def test_failed_unshelve_stays_offloaded_and_keeps_the_image(
    compute, placement_client, images, shelvable
):
    ctxt, instance, image_id = _offloaded(compute, shelvable)
    _claim(compute, placement_client, instance)
    CONF.set_override("fail_spawn", True, group="fake_driver")
    try:
        compute.unshelve_instance(
            ctxt,
            _with_task(instance, task_states.UNSHELVING),
            {"id": image_id},
            node=compute.host,
        )
    finally:
        CONF.clear_override("fail_spawn", group="fake_driver")
    assert _state(instance)[:2] == (vm_states.SHELVED_OFFLOADED, None)
    assert instance.host is None
    assert _usages(placement_client, instance) == {}
    assert images.show(ctxt, image_id)["status"] == "active"
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "set to fail spawns" in faults[0].message
