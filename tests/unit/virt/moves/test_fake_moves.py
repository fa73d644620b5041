"""Resize and cold migration on the fake driver, on one host (the same-host
resize) and the refusal to shrink a disk; live migration's ``auto`` block
migration decided by shared storage."""

import contextlib

import pytest

from nova import exception, objects
from nova.conf import CONF
from nova.states import power_state
from nova.virt import fake

objects.register_all()


def _instance(root_gb=2, vcpus=1):
    return objects.Instance(
        id=7,
        uuid="11111111-2222-3333-4444-555555555555",
        flavor=objects.Flavor(
            vcpus=vcpus, memory_mb=256, root_gb=root_gb, ephemeral_gb=0
        ),
    )


def _resources(virt):
    usage = virt.get_available_resource("h1")
    return usage["vcpus_used"], usage["local_gb_used"]


def _moved(virt, instance, new_flavor, power_on=True):
    disk_info = virt.migrate_disk_and_power_off(
        None, instance, "192.0.2.1", new_flavor, []
    )
    instance.flavor = new_flavor
    virt.finish_migration(
        None, None, instance, disk_info, [], None, True, {}, power_on=power_on
    )


@pytest.fixture
def virt():
    driver = fake.FakeDriver()
    driver.init_host("h1")
    return driver


def test_a_confirmed_resize_keeps_the_new_guest_only(virt):
    instance = _instance()
    virt.spawn(None, instance, None, [], None, {})
    _moved(
        virt,
        instance,
        objects.Flavor(vcpus=4, memory_mb=512, root_gb=3, ephemeral_gb=0),
    )
    assert _resources(virt) == (4, 3)
    virt.confirm_migration(None, None, instance, [])
    assert virt.get_info(instance).state == power_state.RUNNING
    assert _resources(virt) == (4, 3)


def test_a_reverted_resize_brings_the_old_guest_back_as_it_was(virt):
    instance = _instance()
    old_flavor = instance.flavor
    virt.spawn(None, instance, None, [], None, {}, power_on=False)
    bigger = objects.Flavor(vcpus=4, memory_mb=512, root_gb=3, ephemeral_gb=0)
    _moved(virt, instance, bigger, power_on=False)
    virt.destroy(None, instance, [], destroy_disks=False)
    instance.flavor = old_flavor
    virt.finish_revert_migration(None, instance, [], None, power_on=False)
    assert virt.get_info(instance).state == power_state.SHUTDOWN
    assert _resources(virt) == (1, 2)


def test_a_disk_does_not_shrink_and_the_guest_is_left_running(virt):
    instance = _instance(root_gb=2)
    virt.spawn(None, instance, None, [], None, {})
    smaller = objects.Flavor(vcpus=1, memory_mb=256, root_gb=1, ephemeral_gb=0)
    with pytest.raises(exception.InstanceFaultRollback) as raised:
        virt.migrate_disk_and_power_off(None, instance, "192.0.2.1", smaller, [])
    assert "Unable to resize disk down" in str(raised.value.inner_exception)
    assert virt.get_info(instance).state == power_state.RUNNING


@pytest.mark.parametrize("shared", [True, False])
def test_auto_block_migration_copies_disks_unless_storage_is_shared(
    virt, tmp_path, shared
):
    """``block_migration: auto`` (None): the destination leaves a marker
    in its instances directory, the source looks for it in its own."""
    instance = _instance()
    virt.spawn(None, instance, None, [], None, {})
    destination = fake.FakeDriver()
    destination.init_host("h2")
    dest_path, source_path = tmp_path / "dest", tmp_path / "source"
    with _instances_path(dest_path):
        data = destination.check_can_live_migrate_destination(
            None, instance, None, None, block_migration=None
        )
    with _instances_path(dest_path if shared else source_path):
        data = virt.check_can_live_migrate_source(None, instance, data)
    assert data["block_migration"] is (not shared)
    with _instances_path(dest_path):
        destination.pre_live_migration(None, instance, None, [], None, data)
    assert list(dest_path.iterdir()) == []


def test_an_explicit_block_migration_is_kept(virt):
    instance = _instance()
    virt.spawn(None, instance, None, [], None, {})
    data = virt.check_can_live_migrate_destination(
        None, instance, None, None, block_migration=True
    )
    assert virt.check_can_live_migrate_source(None, instance, data)["block_migration"]


@contextlib.contextmanager
def _instances_path(path):
    CONF.set_override("instances_path", str(path))
    try:
        yield
    finally:
        CONF.clear_override("instances_path")
