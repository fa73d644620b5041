"""The compute manager's snapshots and backups (and rebuilds), with the
fake driver, real Placement and the real Glance (see test_manager)."""

# Tests take test_manager's ``compute`` fixture as an argument of that name.
# ruff: noqa: F811

import uuid

import pytest
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from nova import context, exception, objects, service_session
from nova.conf import CONF
from nova.image import glance as glance_api
from nova.states import power_state, task_states, vm_states
from tests.unit.compute.test_manager import (  # noqa: F401  (fixture)
    _build,
    _scheduled_instance,
    compute,
)


@pytest.fixture
def images(openstack_services, monkeypatch):
    """The Glance client as nova-compute uses it (service credentials);
    the images made through it are deleted afterwards."""
    user = openstack_services.service_users["nova"]
    auth = v3.Password(**user.auth_kwargs(openstack_services.auth_url))
    monkeypatch.setitem(
        service_session._loaded, glance_api.GROUP, (ks_session.Session(), auth)
    )
    CONF.set_override("region_name", openstack_services.region, group="glance")
    client = glance_api.GlanceImageAPI()
    made: list[str] = []
    original_create = client.create

    def create(ctxt, meta):
        image = original_create(ctxt, meta)
        made.append(image["id"])
        return image

    client.create = create
    yield client
    for image_id in made:
        try:
            client.delete(None, image_id)
        except exception.ImageNotFound:
            pass
    CONF.clear_override("region_name", group="glance")


def _active(compute):
    ctxt = context.get_admin_context()
    instance = _scheduled_instance(compute, compute._test_placement, ctxt)
    _build(compute, ctxt, instance)
    instance.refresh()
    assert instance.vm_state == vm_states.ACTIVE
    return ctxt, instance


@pytest.fixture
def active(compute, placement_client):
    compute._test_placement = placement_client
    ctxt, instance = _active(compute)
    # The API records the action the manager's events belong to.
    objects.InstanceAction.action_start(
        ctxt, instance.uuid, "createImage", want_result=False
    )
    return ctxt, instance


def _queued(images, ctxt, instance, name="snap", **properties):
    return images.create(
        ctxt,
        {"name": name, "properties": {"instance_uuid": instance.uuid, **properties}},
    )["id"]


def _pending(instance, task_state=task_states.IMAGE_SNAPSHOT_PENDING):
    instance.task_state = task_state
    instance.save()
    return instance


def _events(ctxt, instance):
    action = objects.InstanceActionList.get_by_instance_uuid(ctxt, instance.uuid)[0]
    return [
        (e.event, e.result)
        for e in objects.InstanceActionEventList.get_by_action(ctxt, action.id)
    ]


def test_snapshot_uploads_the_disk_and_clears_the_task(compute, active, images):
    ctxt, instance = active
    image_id = _queued(images, ctxt, instance)
    seen = []
    real_save = instance.save

    def recording_save(*args, **kwargs):
        seen.append(instance.task_state)
        return real_save(*args, **kwargs)

    instance.save = recording_save
    compute.snapshot_instance(ctxt, image_id, _pending(instance))
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    assert seen[1:] == [
        task_states.IMAGE_SNAPSHOT,
        task_states.IMAGE_PENDING_UPLOAD,
        task_states.IMAGE_UPLOADING,
        None,
    ]
    image = images.show(ctxt, image_id)
    assert image["status"] == "active"
    assert (image["disk_format"], image["container_format"]) == ("raw", "bare")
    assert image["size"] > 0
    assert ("compute_snapshot_instance", "Success") in _events(ctxt, instance)


def test_failed_snapshot_deletes_the_image_and_leaves_a_fault(
    compute, active, images, monkeypatch
):
    ctxt, instance = active
    image_id = _queued(images, ctxt, instance)

    def broken(*args, **kwargs):
        raise exception.HypervisorUnavailable(reason="disk unreadable")

    monkeypatch.setattr(compute.driver, "snapshot", broken)
    compute.snapshot_instance(ctxt, image_id, _pending(instance))
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    with pytest.raises(exception.ImageNotFound):
        images.show(ctxt, image_id)
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "disk unreadable" in faults[0].message
    assert ("compute_snapshot_instance", "Error") in _events(ctxt, instance)


def test_image_deleted_during_the_snapshot_is_no_fault(
    compute, active, images, monkeypatch
):
    ctxt, instance = active
    image_id = _queued(images, ctxt, instance)
    real_snapshot = compute.driver.snapshot

    def deleted_first(context, inst, image, update_task_state):
        images.delete(ctxt, image)
        real_snapshot(context, inst, image, update_task_state)

    monkeypatch.setattr(compute.driver, "snapshot", deleted_first)
    compute.snapshot_instance(ctxt, image_id, _pending(instance))
    instance.refresh()
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    assert not objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])


def test_snapshot_of_a_task_changed_meanwhile_does_nothing(compute, active, images):
    ctxt, instance = active
    image_id = _queued(images, ctxt, instance)
    instance.task_state = task_states.REBOOTING
    instance.save()
    compute.snapshot_instance(ctxt, image_id, instance)
    instance.refresh()
    assert instance.task_state == task_states.REBOOTING
    with pytest.raises(exception.ImageNotFound):
        images.show(ctxt, image_id)


def test_backup_keeps_only_the_newest_rotation(compute, active, images):
    ctxt, instance = active
    backup_type = f"daily-{uuid.uuid4().hex[:6]}"
    made = []
    for n in range(3):
        image_id = _queued(
            images,
            ctxt,
            instance,
            name=f"b{n}",
            image_type="backup",
            backup_type=backup_type,
        )
        compute.backup_instance(
            ctxt,
            image_id,
            _pending(instance, task_states.IMAGE_BACKUP),
            backup_type,
            2,
        )
        made.append(image_id)
    instance.refresh()
    assert instance.task_state is None
    left = images.get_all(
        ctxt, {"instance_uuid": instance.uuid, "backup_type": backup_type}
    )
    assert sorted(i["id"] for i in left) == sorted(made[1:])
    # The newest backup has its data.
    assert images.show(ctxt, made[-1])["status"] == "active"


def test_restart_clears_an_interrupted_snapshot(compute, active, images):
    ctxt, instance = active
    _pending(instance, task_states.IMAGE_UPLOADING)
    compute.recovery.recover_instance(ctxt, instance)
    instance.refresh()
    assert instance.task_state is None


# -- rebuild --------------------------------------------------------------------


def _image(images, ctxt, **properties):
    image = images.create(
        ctxt,
        {
            "name": "rebuild-image",
            "disk_format": "raw",
            "container_format": "bare",
            "properties": properties,
        },
    )
    images.upload(ctxt, image["id"], b"x" * 512)
    return image["id"]


def _rebuilding(instance, image_id):
    orig = (instance.image_ref, dict(instance.system_metadata))
    instance.image_ref = image_id
    instance.system_metadata = {"image_base_image_ref": image_id}
    instance.task_state = task_states.REBUILDING
    instance.save()
    return orig


def _rebuild(compute, ctxt, instance, image_id, orig):
    compute.rebuild_instance(
        ctxt,
        instance,
        orig_image_ref=orig[0],
        image_ref=image_id,
        orig_sys_metadata=orig[1],
        new_pass="pw",
    )
    instance.refresh()


def test_rebuild_respawns_the_guest(compute, active, images, monkeypatch):
    ctxt, instance = active
    image_id = _image(images, ctxt)
    spawned = []
    real_spawn = compute.driver.spawn

    def spawn(context, inst, image_meta, *args, **kwargs):
        spawned.append((image_meta.id, inst.task_state, kwargs.get("power_on")))
        return real_spawn(context, inst, image_meta, *args, **kwargs)

    monkeypatch.setattr(compute.driver, "spawn", spawn)
    _rebuild(compute, ctxt, instance, image_id, _rebuilding(instance, image_id))
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    assert instance.power_state == power_state.RUNNING
    assert instance.image_ref == image_id
    assert spawned == [(image_id, task_states.REBUILD_SPAWNING, True)]
    assert ("compute_rebuild_instance", "Success") in _events(ctxt, instance)


def test_rebuild_of_a_stopped_server_leaves_it_stopped(compute, active, images):
    ctxt, instance = active
    compute.driver.power_off(instance)
    instance.vm_state = vm_states.STOPPED
    instance.save()
    image_id = _image(images, ctxt)
    _rebuild(compute, ctxt, instance, image_id, _rebuilding(instance, image_id))
    assert (instance.vm_state, instance.task_state) == (vm_states.STOPPED, None)
    assert compute.driver.get_info(instance).state == power_state.SHUTDOWN


def test_rebuild_to_an_image_the_host_cannot_run_is_refused(compute, active, images):
    ctxt, instance = active
    old_image = instance.image_ref
    image_id = _image(images, ctxt, hw_architecture="s390x")
    _rebuild(compute, ctxt, instance, image_id, _rebuilding(instance, image_id))
    # Nothing was destroyed: the server keeps its state and its old image.
    assert (instance.vm_state, instance.task_state) == (vm_states.ACTIVE, None)
    assert instance.image_ref == old_image
    assert compute.driver.get_info(instance).state == power_state.RUNNING
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "architecture" in faults[0].message
    assert ("compute_rebuild_instance", "Error") in _events(ctxt, instance)


def test_failed_rebuild_spawn_is_error_with_a_fault(
    compute, active, images, monkeypatch
):
    ctxt, instance = active
    image_id = _image(images, ctxt)
    CONF.set_override("fail_spawn", True, group="fake_driver")
    try:
        _rebuild(compute, ctxt, instance, image_id, _rebuilding(instance, image_id))
    finally:
        CONF.clear_override("fail_spawn", group="fake_driver")
    assert (instance.vm_state, instance.task_state) == (vm_states.ERROR, None)
    faults = objects.InstanceFaultList.get_by_instance_uuids(ctxt, [instance.uuid])
    assert "fail spawns" in faults[0].message
