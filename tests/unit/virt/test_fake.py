"""The fake virt driver."""

import pytest

from nova import exception, objects
from nova.conf import CONF
from nova.states import power_state
from nova.virt import driver, fake

objects.register_all()


def _instance():
    return objects.Instance(
        id=1,
        uuid="66666666-7777-8888-9999-000000000000",
        flavor=objects.Flavor(vcpus=2, memory_mb=256, root_gb=1, ephemeral_gb=1),
    )


def test_loads_by_upstream_name():
    assert isinstance(driver.load_compute_driver("fake.FakeDriver"), fake.FakeDriver)
    with pytest.raises(exception.DriverNotConfigured):
        driver.load_compute_driver(None)
    with pytest.raises(exception.ClassNotFound):
        driver.load_compute_driver("nosuch.Driver")


def test_guest_lifecycle():
    virt = fake.FakeDriver()
    virt.init_host("h1")
    instance = _instance()
    virt.spawn(None, instance, None, [], "pw", {})
    assert virt.list_instances() == ["instance-00000001"]
    assert virt.get_info(instance).state == power_state.RUNNING
    for action, state in (
        (lambda: virt.power_off(instance), power_state.SHUTDOWN),
        (lambda: virt.power_on(None, instance, []), power_state.RUNNING),
        (lambda: virt.pause(instance), power_state.PAUSED),
        (lambda: virt.unpause(instance), power_state.RUNNING),
        (lambda: virt.suspend(None, instance), power_state.SUSPENDED),
        (lambda: virt.resume(None, instance, []), power_state.RUNNING),
        (lambda: virt.reboot(None, instance, [], "HARD"), power_state.RUNNING),
    ):
        action()
        assert virt.get_info(instance).state == state
    console = virt.get_console_output(None, instance)
    assert console.startswith("FAKE CONSOLE OUTPUT\n")
    # Like a real console log: more than three lines, newline-terminated,
    # so a tail of three lines splits into three (Tempest counts them).
    assert console.endswith("\n") and console.count("\n") > 3
    assert instance.uuid in console
    assert virt.get_vnc_console(None, instance) == {
        "host": CONF.vnc.server_proxyclient_address,
        "port": CONF.fake_driver.vnc_port,
    }
    virt.destroy(None, instance)
    virt.destroy(None, instance)
    with pytest.raises(exception.InstanceNotFound):
        virt.get_info(instance)


def test_resources_follow_configuration_and_guests():
    virt = fake.FakeDriver()
    virt.init_host("h1")
    virt.spawn(None, _instance(), None, [], None, {})
    [node] = virt.get_available_nodes()
    resources = virt.get_available_resource(node)
    assert node == "h1" and resources["hypervisor_hostname"] == "h1"
    assert (resources["vcpus"], resources["memory_mb"]) == (1000, 800000)
    assert (resources["vcpus_used"], resources["local_gb_used"]) == (2, 2)
    assert ["x86_64", "fake", "hvm"] in resources["supported_instances"]


def test_diagnostics_password_crash_dump_and_uptime():
    virt = fake.FakeDriver()
    virt.init_host("h1")
    instance = _instance()
    virt.spawn(None, instance, None, [], None, {})
    assert virt.get_diagnostics(instance)["memory"] == 256 * 1024
    standard = virt.get_instance_diagnostics(instance)
    assert (standard["state"], standard["num_cpus"]) == ("running", 2)
    assert [cpu["id"] for cpu in standard["cpu_details"]] == [0, 1]
    virt.set_admin_password(instance, "secret")
    virt.trigger_crash_dump(instance)
    guest = virt._guest(instance)
    assert (guest.password_changes, guest.crash_dumps) == (1, 1)
    assert "secret" not in repr(guest)
    assert " up 0 days" in virt.get_host_uptime()
    virt.destroy(None, instance, [])
    with pytest.raises(exception.InstanceNotFound):
        virt.trigger_crash_dump(instance)


class _RecordingImages:
    """Where the fake driver's snapshot data goes (Glance's side is in
    tests/unit/compute/test_manager_images.py)."""

    def __init__(self):
        self.metadata = {}
        self.data = {}

    def update(self, context, image_id, changes):
        self.metadata[image_id] = changes

    def upload(self, context, image_id, data):
        self.data[image_id] = data


def test_snapshot_uploads_a_payload_naming_the_guest():
    images = _RecordingImages()
    virt = fake.FakeDriver(image=images)
    virt.init_host("h1")
    instance = _instance()
    virt.spawn(None, instance, None, [], None, {})
    states = []
    virt.snapshot(
        None,
        instance,
        "img-1",
        lambda task_state, expected_state=None: states.append(
            (task_state, expected_state)
        ),
    )
    assert states == [
        ("image_pending_upload", None),
        ("image_uploading", "image_pending_upload"),
    ]
    assert images.metadata["img-1"]["disk_format"] == "raw"
    assert instance.uuid.encode() in images.data["img-1"]
    with pytest.raises(exception.InstanceNotFound):
        virt.snapshot(None, _instance_other(), "img-2", lambda **kw: None)


def _instance_other():
    other = _instance()
    other.uuid = "11111111-2222-3333-4444-555555555555"
    return other
