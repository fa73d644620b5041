"""Pure helpers of the compute API."""

import pytest

from nova.compute.api import checks, create


@pytest.mark.parametrize(
    "name, hostname",
    [("My Server", "my-server"), ("web_01.example", "web-01-example"),
     ("--x--", "x"), ("ünï", "ünï"), ("a" * 70, "a" * 63)],
)  # fmt: skip
def test_sanitize_hostname(name, hostname):
    assert create.sanitize_hostname(name) == hostname


def test_sanitize_hostname_falls_back_to_the_default():
    assert create.sanitize_hostname("☃☃", default_name="Server-1") == "Server-1"


def test_image_system_metadata_keeps_inheritable_properties():
    image = {
        "id": "img", "min_ram": 0, "min_disk": 1, "disk_format": "qcow2",
        "container_format": "bare",
        "properties": {"hw_disk_bus": "virtio", "cache_in_nova": "True"},
    }  # fmt: skip
    assert checks.image_system_metadata(image) == {
        "image_base_image_ref": "img",
        "image_min_ram": "0",
        "image_min_disk": "1",
        "image_disk_format": "qcow2",
        "image_container_format": "bare",
        "image_hw_disk_bus": "virtio",
    }


def test_generated_passwords_have_the_configured_length():
    assert len(create.generate_password(16)) == 16
    assert create.generate_password(12) != create.generate_password(12)
