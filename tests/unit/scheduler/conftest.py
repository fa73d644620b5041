import datetime

import pytest
from oslo_utils import uuidutils

# Before anything imports oslo.messaging: nova.conf makes oslo.service
# settle on native threads, as every nova process does.
import nova.conf  # noqa: F401
from nova import objects
from nova.scheduler.host_manager import HostState

objects.register_all()


def flavor(memory_mb=512, vcpus=1, root_gb=1, ephemeral_gb=0, swap=0, extra_specs=None):
    return objects.Flavor(
        id=1,
        flavorid="f1",
        name="f1",
        memory_mb=memory_mb,
        vcpus=vcpus,
        root_gb=root_gb,
        ephemeral_gb=ephemeral_gb,
        swap=swap,
        extra_specs=extra_specs or {},
    )


def spec(**kwargs):
    values = {
        "instance_uuid": "11111111-2222-3333-4444-555555555555",
        "project_id": "p",
        "user_id": "u",
        "flavor": flavor(),
        "image": objects.ImageMeta.from_dict({"properties": {}}),
        "num_instances": 1,
        "availability_zone": None,
        "instance_group": None,
    }
    values.update(kwargs)
    return objects.RequestSpec(**values)


def host_state(
    host="h1", free_ram=4096, vcpus=8, disk=100, up=True, disabled=False, **attrs
):
    state = HostState(host, host, uuidutils.generate_uuid(), "cell")
    now = datetime.datetime.now(datetime.UTC)
    state.service = objects.Service(
        host=host,
        binary="nova-compute",
        disabled=disabled,
        forced_down=False,
        last_seen_up=now if up else now - datetime.timedelta(hours=1),
    )
    state.capacity = {"MEMORY_MB": free_ram, "VCPU": vcpus, "DISK_GB": disk}
    state.used = {}
    state.supported_instances = [["x86_64", "fake", "hvm"]]
    for name, value in attrs.items():
        setattr(state, name, value)
    return state


@pytest.fixture
def make_spec():
    return spec


@pytest.fixture
def make_host():
    return host_state


@pytest.fixture
def make_flavor():
    return flavor


@pytest.fixture
def flags():
    """Set scheduler options for one test: ``flags(group, name=value, ...)``."""
    from nova.conf import CONF

    set_ = []

    def override(group, **values):
        group = None if group == "DEFAULT" else group
        for name, value in values.items():
            CONF.set_override(name, value, group=group)
            set_.append((name, group))

    yield override
    for name, group in set_:
        CONF.clear_override(name, group=group)
