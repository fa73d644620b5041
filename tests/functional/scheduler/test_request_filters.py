"""Request filters narrow the Placement query: hosts they rule out never
reach the host filters, and a failure says which constraint nobody met."""

import pytest
from oslo_utils import uuidutils

from nova import exception, placement
from nova.compute.manager import ComputeManager
from nova.placement import COMPUTE_STATUS_DISABLED
from tests.functional.scheduler.conftest import select


def _chosen_host(cloud, spec_obj) -> str:
    [[chosen, *_]] = select(cloud.ctxt, spec_obj)
    return chosen.service_host


def test_disabled_compute_is_left_out_by_placement(cloud, flags):
    # No host filter at all: only Placement can keep the disabled one out.
    flags("filter_scheduler", enabled_filters=[])
    disabled = cloud.add_host("rf-disabled")
    cloud.add_host("rf-enabled")
    # What the compute does when the API tells it its service is disabled.
    flags("DEFAULT", compute_driver="fake.FakeDriver")
    compute = ComputeManager("rf-disabled")
    compute.rt.compute_nodes = {"rf-disabled": disabled}
    assert compute.set_host_enabled(cloud.ctxt, enabled=False) == "disabled"
    assert COMPUTE_STATUS_DISABLED in cloud.client.get_traits(disabled.uuid).traits
    for _ in range(3):
        assert _chosen_host(cloud, cloud.spec()) == "rf-enabled"
    with pytest.raises(exception.NoValidHost, match="enabled compute service"):
        select(cloud.ctxt, cloud.spec(ignore_hosts=["rf-enabled"], units=4))
    assert compute.set_host_enabled(cloud.ctxt, enabled=True) == "enabled"
    assert COMPUTE_STATUS_DISABLED not in cloud.client.get_traits(disabled.uuid).traits


def test_availability_zone_becomes_member_of(cloud, flags):
    flags("filter_scheduler", enabled_filters=[])
    a = cloud.add_host("rf-az-a", units=2)
    cloud.add_host("rf-az-none")
    cloud.add_aggregate("rf-zone", [a], {"availability_zone": "rf-zone"})
    for _ in range(2):
        assert _chosen_host(cloud, cloud.spec(availability_zone="rf-zone")) == (
            "rf-az-a"
        )
    with pytest.raises(exception.NoValidHost, match="member_of=in:"):
        select(cloud.ctxt, cloud.spec(availability_zone="rf-zone"))


def test_tenant_isolation_through_placement(cloud, flags):
    flags("filter_scheduler", enabled_filters=[])
    flags("scheduler", limit_tenants_to_placement_aggregate=True)
    mine = cloud.add_host("rf-tenant-mine")
    cloud.add_host("rf-tenant-other")
    cloud.add_aggregate("rf-tenant", [mine], {"filter_tenant_id": "p-mine"})
    for _ in range(3):
        assert _chosen_host(cloud, cloud.spec(project_id="p-mine")) == (
            "rf-tenant-mine"
        )
    # Other projects may go anywhere, until an aggregate is required.
    assert _chosen_host(cloud, cloud.spec(project_id="p-other"))
    flags("scheduler", placement_aggregate_required_for_tenants=True)
    with pytest.raises(exception.NoValidHost, match="No aggregate is assigned"):
        select(cloud.ctxt, cloud.spec(project_id="p-other"))


def test_isolated_aggregates_keep_other_flavors_out(cloud, flags):
    flags("filter_scheduler", enabled_filters=[])
    flags("scheduler", enable_isolated_aggregate_filtering=True)
    trait = "CUSTOM_RF_" + uuidutils.generate_uuid()[:6].upper()
    special = cloud.add_host("rf-special", traits=[trait])
    cloud.add_host("rf-plain")
    cloud.add_aggregate("rf-isolated", [special], {f"trait:{trait}": "required"})
    for _ in range(3):
        assert _chosen_host(cloud, cloud.spec()) == "rf-plain"
    wanted = cloud.spec(extra_specs={f"trait:{trait}": "required"})
    assert _chosen_host(cloud, wanted) == "rf-special"


def test_flavor_traits_and_what_nobody_has(cloud, flags):
    flags("filter_scheduler", enabled_filters=[])
    fast = "CUSTOM_RF_FAST" + uuidutils.generate_uuid()[:6].upper()
    slow = "CUSTOM_RF_SLOW" + uuidutils.generate_uuid()[:6].upper()
    placement.client().ensure_custom_traits([fast, slow])
    cloud.add_host("rf-fast", traits=[fast])
    cloud.add_host("rf-slow", traits=[slow])
    required = cloud.spec(extra_specs={f"trait:{fast}": "required"})
    assert _chosen_host(cloud, required) == "rf-fast"
    forbidden = cloud.spec(extra_specs={f"trait:{fast}": "forbidden"})
    assert _chosen_host(cloud, forbidden) == "rf-slow"
    nobody = "CUSTOM_RF_NONE" + uuidutils.generate_uuid()[:6].upper()
    placement.client().ensure_custom_traits([nobody])
    with pytest.raises(exception.NoValidHost) as error:
        select(cloud.ctxt, cloud.spec(extra_specs={f"trait:{nobody}": "required"}))
    assert f"has the required trait {nobody}" in str(error.value)
