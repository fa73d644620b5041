"""The Placement request built from a request spec."""

from nova import objects
from nova.scheduler.utils import ResourceRequest


def test_flavor_resources(make_spec, make_flavor):
    spec = make_spec(flavor=make_flavor(512, 2, root_gb=10, ephemeral_gb=5, swap=1025))
    assert ResourceRequest.from_request_spec(spec).resources == {
        "VCPU": 2,
        "MEMORY_MB": 512,
        "DISK_GB": 17,  # 10 + 5 + 1025 MiB of swap rounded up to 2 GiB
    }


def test_zero_disk_and_boot_from_volume_leave_disk_out(make_spec, make_flavor):
    spec = make_spec(flavor=make_flavor(root_gb=0))
    assert "DISK_GB" not in ResourceRequest.from_request_spec(spec).resources
    spec = make_spec(flavor=make_flavor(root_gb=20), is_bfv=True)
    assert "DISK_GB" not in ResourceRequest.from_request_spec(spec).resources


def test_extra_specs_and_image_traits(make_spec, make_flavor):
    flavor = make_flavor(
        extra_specs={
            "resources:VCPU": "0",
            "resources:CUSTOM_GPU": "1",
            "trait:HW_CPU_X86_AVX2": "required",
            "trait:CUSTOM_SLOW": "forbidden",
        }
    )
    image = objects.ImageMeta.from_dict(
        {"properties": {"trait:CUSTOM_IMG": "required"}}
    )
    request = ResourceRequest.from_request_spec(make_spec(flavor=flavor, image=image))
    assert request.resources == {"MEMORY_MB": 512, "DISK_GB": 1, "CUSTOM_GPU": 1}
    assert request.required_traits == {"HW_CPU_X86_AVX2", "CUSTOM_IMG"}
    assert request.forbidden_traits == {"CUSTOM_SLOW"}
    assert request.describe() == "CUSTOM_GPU:1, DISK_GB:1, MEMORY_MB:512"


def test_granular_groups_and_group_policy(make_spec, make_flavor):
    flavor = make_flavor(
        extra_specs={
            "resources1:CUSTOM_NIC": "1",
            "trait1:CUSTOM_PHYSNET_A": "required",
            "resources2:CUSTOM_NIC": "2",
            "trait2:CUSTOM_SLOW": "forbidden",
            "group_policy": "isolate",
        }
    )
    request = ResourceRequest.from_request_spec(make_spec(flavor=flavor))
    assert request.groups["1"].resources == {"CUSTOM_NIC": 1}
    assert request.groups["1"].required_traits == {"CUSTOM_PHYSNET_A"}
    assert request.groups["2"].forbidden_traits == {"CUSTOM_SLOW"}
    assert request.total_resources["CUSTOM_NIC"] == 3
    query = request.placement_query(limit=10)
    assert query["group_policy"] == "isolate" and query["limit"] == 10
    assert set(query["groups"]) == {"1", "2"}


def test_two_groups_without_policy_get_none(make_spec, make_flavor):
    flavor = make_flavor(
        extra_specs={"resources1:CUSTOM_A": "1", "resources2:CUSTOM_B": "1"}
    )
    request = ResourceRequest.from_request_spec(make_spec(flavor=flavor))
    assert request.placement_query()["group_policy"] == "none"
