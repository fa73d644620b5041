"""Validation of flavor extra specs in nova's namespaces."""

import pytest

from nova import exception
from nova.api.openstack import extra_specs


@pytest.mark.parametrize(
    "key, value",
    [
        ("hw:cpu_policy", "dedicated"),
        ("hw:numa_cpus.0", "0-3,^2"),
        ("hw:mem_page_size", "2048"),
        ("hw:mem_page_size", "1GB"),
        ("hw_rng:allowed", "True"),
        ("quota:disk_read_iops_sec", "100"),
        ("resources:VCPU", "2"),
        ("resources_gpu:CUSTOM_GPU", "1"),
        ("trait2:HW_CPU_X86_AVX2", "forbidden"),
        ("group_policy", "isolate"),
        ("pci_passthrough:alias", "a1:2,b:1"),
        ("aggregate_instance_extra_specs:anything", "x"),
        # Not nova's: left alone.
        ("vendor:knob", "x"),
        ("no_namespace", "x"),
    ],
)
def test_valid(key, value):
    extra_specs.validate(key, value)


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("hw:cpu_policy", "fast", "is not a valid value"),
        ("hw:numa_nodes", "0", "is not a valid value"),
        ("hw:unknown", "1", "does not appear to be a valid extra spec"),
        ("resources1:VCPU", "one", "is not a valid value"),
        ("trait:HW_X", "yes", "is not a valid value"),
        ("quota:unknown", "1", "does not appear to be a valid extra spec"),
        ("pci_passthrough:alias", "a1", "is not a valid value"),
    ],
)
def test_invalid(key, value, message):
    with pytest.raises(exception.ValidationError, match=message) as raised:
        extra_specs.validate(key, value)
    assert raised.value.code == 400
