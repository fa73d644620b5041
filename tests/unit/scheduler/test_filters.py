"""Host filters, their loading from configuration, and elimination counts."""

import pytest

from nova import objects
from nova.conf import CONF
from nova.scheduler import filters
from nova.scheduler.filters import compute_capabilities_filter as capabilities
from nova.scheduler.filters.affinity_filter import (
    ServerGroupAffinityFilter,
    ServerGroupAntiAffinityFilter,
)
from nova.scheduler.filters.availability_zone_filter import AvailabilityZoneFilter
from nova.scheduler.filters.compute_filter import ComputeFilter
from nova.scheduler.filters.image_props_filter import ImagePropertiesFilter
from nova.scheduler.filters.num_instances_filter import NumInstancesFilter


@pytest.mark.parametrize(
    ("up", "disabled", "passes"),
    [(True, False, True), (False, False, False), (True, True, False)],
)
def test_compute_filter_wants_an_enabled_live_service(
    make_host, make_spec, up, disabled, passes
):
    host = make_host(up=up, disabled=disabled)
    assert ComputeFilter().host_passes(host, make_spec()) is passes


def test_compute_filter_rejects_forced_down(make_host, make_spec):
    host = make_host()
    host.service.forced_down = True
    assert not ComputeFilter().host_passes(host, make_spec())


def test_num_instances_filter(make_host, make_spec):
    CONF.set_override("max_instances_per_host", 2, group="filter_scheduler")
    try:
        assert NumInstancesFilter().host_passes(make_host(num_instances=1), make_spec())
        assert not NumInstancesFilter().host_passes(
            make_host(num_instances=2), make_spec()
        )
    finally:
        CONF.clear_override("max_instances_per_host", group="filter_scheduler")


def test_availability_zone_filter(make_host, make_spec):
    host = make_host(availability_zone="az1,az2")
    assert AvailabilityZoneFilter().host_passes(host, make_spec())
    assert AvailabilityZoneFilter().host_passes(
        host, make_spec(availability_zone="az2")
    )
    assert not AvailabilityZoneFilter().host_passes(
        host, make_spec(availability_zone="nova")
    )


@pytest.mark.parametrize(
    ("properties", "passes"),
    [
        ({}, True),
        ({"hw_architecture": "x86_64"}, True),
        ({"architecture": "X86_64", "hypervisor_type": "fake"}, True),
        ({"hw_architecture": "aarch64"}, False),
        ({"img_hv_type": "qemu"}, False),
        ({"hw_vm_mode": "hvm"}, True),
    ],
)
def test_image_properties_filter(make_host, make_spec, properties, passes):
    image = objects.ImageMeta.from_dict({"properties": properties})
    host = make_host()
    assert ImagePropertiesFilter().host_passes(host, make_spec(image=image)) is passes


@pytest.mark.parametrize(
    ("value", "requirement", "matches"),
    [
        (16, ">= 8", True),
        (4, ">= 8", False),
        (8, "= 8", True),
        (9, "= 8", True),
        (9, "== 8", False),
        ("fake", "s== fake", True),
        ("fake", "<in> ak", True),
        ("kvm", "<or> qemu <or> kvm", True),
        ("xen", "<or> qemu <or> kvm", False),
        ("fake", "fake", True),
        ("fake", "other", False),
    ],
)
def test_capability_operators(value, requirement, matches):
    assert capabilities.match(value, requirement) is matches


def test_compute_capabilities_filter(make_host, make_spec, make_flavor):
    host = make_host(hypervisor_type="fake", stats={"gpu": "2"})
    check = capabilities.ComputeCapabilitiesFilter().host_passes

    def spec_with(extra_specs):
        return make_spec(flavor=make_flavor(extra_specs=extra_specs))

    assert check(host, spec_with({"capabilities:hypervisor_type": "fake"}))
    assert not check(host, spec_with({"capabilities:hypervisor_type": "kvm"}))
    assert check(host, spec_with({"capabilities:stats:gpu": ">= 1"}))
    assert not check(host, spec_with({"capabilities:missing": "x"}))
    # Other scopes belong to other filters.
    assert check(host, spec_with({"hw:cpu_policy": "dedicated"}))


def test_server_group_filters(make_host, make_spec):
    group = objects.InstanceGroup(policy="anti-affinity", hosts=["h1"])
    spec = make_spec(instance_group=group)
    assert not ServerGroupAntiAffinityFilter().host_passes(make_host("h1"), spec)
    assert ServerGroupAntiAffinityFilter().host_passes(make_host("h2"), spec)
    assert ServerGroupAffinityFilter().host_passes(make_host("h2"), spec)
    spec = make_spec(
        instance_group=objects.InstanceGroup(policy="affinity", hosts=["h1"])
    )
    assert ServerGroupAffinityFilter().host_passes(make_host("h1"), spec)
    assert not ServerGroupAffinityFilter().host_passes(make_host("h2"), spec)


def test_all_filters_are_found():
    names = {cls.name() for cls in filters.all_filters()}
    assert {
        "ComputeFilter",
        "NumInstancesFilter",
        "AvailabilityZoneFilter",
        "ImagePropertiesFilter",
        "ComputeCapabilitiesFilter",
        "ServerGroupAffinityFilter",
        "ServerGroupAntiAffinityFilter",
        "AllHostsFilter",
    } <= names


def test_unknown_enabled_filters_are_skipped(caplog):
    enabled = filters.enabled_filters(
        [filters.ALL_FILTERS], ["ComputeFilter", "RamFilter", "AllHostsFilter"]
    )
    assert [f.name() for f in enabled] == ["ComputeFilter", "AllHostsFilter"]
    assert "RamFilter is enabled but not available" in caplog.text


def test_dotted_filter_names_load():
    [cls] = filters.load_filter_classes(
        ["nova.scheduler.filters.compute_filter.ComputeFilter"]
    )
    assert cls is ComputeFilter
    assert filters.load_filter_classes(["no.such.Filter"]) == []


def test_run_filters_counts_what_each_filter_removed(make_host, make_spec):
    hosts = [make_host("h1"), make_host("h2", up=False), make_host("h3", disabled=True)]
    result = filters.run_filters(
        [ComputeFilter(), AvailabilityZoneFilter()], hosts, make_spec()
    )
    assert [h.host for h in result.hosts] == ["h1"]
    assert result.eliminations == [
        ("ComputeFilter", 3, 1),
        ("AvailabilityZoneFilter", 1, 1),
    ]
    assert result.describe() == "ComputeFilter removed 2 of 3"


def test_run_filters_stops_when_no_host_is_left(make_host, make_spec):
    result = filters.run_filters(
        [ComputeFilter(), AvailabilityZoneFilter()],
        [make_host("h1", up=False)],
        make_spec(availability_zone="az"),
    )
    assert result.hosts == []
    assert result.eliminations == [("ComputeFilter", 1, 0)]
