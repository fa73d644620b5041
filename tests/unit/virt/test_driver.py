"""The driver interface: every driver loads, and what a driver does not
implement of the network, volume and move methods says so."""

import pytest

from nova.virt import driver, fake

# Each method a driver may lack, called with upstream's argument names.
UNIMPLEMENTED = {
    "rebuild": dict(
        context=None,
        instance=None,
        image_meta=None,
        injected_files=[],
        admin_password=None,
        allocations={},
        bdms=[],
        detach_block_devices=None,
        attach_block_devices=None,
        network_info=[],
        evacuate=False,
        block_device_info=None,
        preserve_ephemeral=False,
    ),
    "plug_vifs": dict(instance=None, network_info=[]),
    "unplug_vifs": dict(instance=None, network_info=[]),
    "get_volume_connector": dict(instance=None),
    "attach_volume": dict(
        context=None,
        connection_info={},
        instance=None,
        mountpoint="/dev/vdb",
        disk_bus="virtio",
        device_type="disk",
        encryption=None,
    ),
    "detach_volume": dict(
        context=None,
        connection_info={},
        instance=None,
        mountpoint="/dev/vdb",
        encryption=None,
    ),
    "swap_volume": dict(
        context=None,
        old_connection_info={},
        new_connection_info={},
        instance=None,
        mountpoint="/dev/vdb",
        resize_to=0,
    ),
    "extend_volume": dict(
        context=None, connection_info={}, instance=None, requested_size=2**30
    ),
    "live_migration_force_complete": dict(instance=None),
    "live_migration_abort": dict(instance=None),
}


def test_the_libvirt_driver_loads_by_upstream_name():
    pytest.importorskip("libvirt")
    from nova.virt import libvirt

    assert isinstance(
        driver.load_compute_driver("libvirt.LibvirtDriver"), libvirt.LibvirtDriver
    )


@pytest.mark.parametrize("method", sorted(UNIMPLEMENTED))
def test_a_driver_without_the_method_raises_not_implemented(method):
    # The interface's own method, as a driver that does not override it has
    # it (the fake driver implements some, the volume methods for one).
    with pytest.raises(NotImplementedError):
        getattr(driver.ComputeDriver, method)(
            fake.FakeDriver(), **UNIMPLEMENTED[method]
        )


def test_post_live_migration_is_an_optional_hook():
    fake.FakeDriver().post_live_migration(
        context=None, instance=None, block_device_info=None, migrate_data=None
    )
