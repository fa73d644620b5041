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
