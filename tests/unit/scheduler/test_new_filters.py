"""Host filters that need no database: their rules, host by host."""

import json

import pytest

from nova import objects
from nova.scheduler.filters.aggregate_image_properties_isolation import (
    AggregateImagePropertiesIsolation,
)
from nova.scheduler.filters.aggregate_instance_extra_specs import (
    AggregateInstanceExtraSpecsFilter,
)
from nova.scheduler.filters.aggregate_multitenancy_isolation import (
    AggregateMultiTenancyIsolation,
)
from nova.scheduler.filters.isolated_hosts_filter import IsolatedHostsFilter
from nova.scheduler.filters.json_filter import JsonFilter, evaluate


def _aggregate(**metadata):
    return objects.Aggregate(name="agg", metadata=metadata, hosts=[])


def test_extra_specs_match_aggregate_metadata(make_host, make_spec, make_flavor):
    host = make_host(aggregates=[_aggregate(ssd="true", gpus="4")])
    check = AggregateInstanceExtraSpecsFilter().host_passes

    def spec(**extra):
        return make_spec(flavor=make_flavor(extra_specs=extra))

    assert check(host, spec(ssd="true"))
    assert check(host, spec(**{"aggregate_instance_extra_specs:gpus": ">= 2"}))
    assert not check(host, spec(**{"aggregate_instance_extra_specs:gpus": ">= 8"}))
    assert not check(host, spec(ssd="false"))
    assert not check(make_host(), spec(ssd="true"))
    # Other scopes belong to other filters.
    assert check(make_host(), spec(**{"capabilities:cpu": "x"}))


def test_image_properties_isolation_with_namespace(make_host, make_spec, flags):
    host = make_host(aggregates=[_aggregate(hw_architecture="x86_64,i686", other="y")])
    image = objects.ImageMeta.from_dict({"properties": {"hw_architecture": "aarch64"}})
    check = AggregateImagePropertiesIsolation().host_passes
    assert not check(host, make_spec(image=image))
    ok = objects.ImageMeta.from_dict({"properties": {"hw_architecture": "i686"}})
    assert check(host, make_spec(image=ok))
    # Only keys under the namespace count when one is set.
    flags("filter_scheduler", aggregate_image_properties_isolation_namespace="ns")
    assert check(host, make_spec(image=image))


def test_multitenancy_isolation(make_host, make_spec):
    host = make_host(aggregates=[_aggregate(filter_tenant_id="a,b")])
    check = AggregateMultiTenancyIsolation().host_passes
    assert check(host, make_spec(project_id="b"))
    assert not check(host, make_spec(project_id="c"))
    assert check(make_host(), make_spec(project_id="c"))


@pytest.mark.parametrize(
    ("restrict", "image_isolated", "host_isolated", "passes"),
    [
        (True, True, True, True),
        (True, True, False, False),
        (True, False, True, False),
        (True, False, False, True),
        (False, True, False, False),
        (False, False, True, True),
    ],
)
def test_isolated_hosts(
    make_host, make_spec, flags, restrict, image_isolated, host_isolated, passes
):
    image_id = "11111111-0000-4000-8000-000000000000"
    flags(
        "filter_scheduler",
        isolated_images=[image_id],
        isolated_hosts=["iso"],
        restrict_isolated_hosts_to_isolated_images=restrict,
    )
    image = objects.ImageMeta.from_dict(
        {"id": image_id if image_isolated else "22222222-0000-4000-8000-000000000000"}
    )
    host = make_host("iso" if host_isolated else "plain")
    assert IsolatedHostsFilter().host_passes(host, make_spec(image=image)) is passes


def test_json_filter_queries(make_host, make_spec):
    host = make_host(free_ram=2048, vcpus=4)
    assert evaluate(
        ["and", [">=", "$free_ram_mb", 1024], ["<", "$vcpus_free", 8]], host
    )
    assert not evaluate(["or", ["=", "$host", "other"], ["not", True]], host)
    assert evaluate(["in", "$host", "h1", "h2"], host)
    with pytest.raises(ValueError):
        evaluate(["xor", 1, 2], host)
    spec = make_spec(
        scheduler_hints={"query": [json.dumps([">", "$free_ram_mb", 4096])]}
    )
    assert not JsonFilter().host_passes(host, spec)
    broken = make_spec(scheduler_hints={"query": ["not json"]})
    assert not JsonFilter().host_passes(host, broken)
