"""Each weigher's effect on hosts the real Placement proposed: one weigher
enabled, the host it favours is chosen; aggregate metadata overrides its
multiplier for the aggregate's hosts."""

import pytest

from nova import objects
from tests.functional.scheduler.conftest import select

_WEIGHERS = "nova.scheduler.weights."


def _chosen(cloud, spec_obj=None) -> str:
    [[chosen, *_]] = select(cloud.ctxt, spec_obj or cloud.spec())
    return chosen.service_host


@pytest.fixture
def weigh_with(flags):
    def enable(name, **multipliers):
        flags("filter_scheduler", enabled_filters=[], weight_classes=[_WEIGHERS + name])
        if multipliers:
            flags("filter_scheduler", **multipliers)

    return enable


def test_cpu_weigher_spreads_and_aggregates_override(cloud, weigh_with):
    weigh_with("resources.CPUWeigher")
    big = cloud.add_host("w-big", vcpus=16)
    cloud.add_host("w-small", vcpus=8)
    assert _chosen(cloud) == "w-big"
    # An aggregate asking its hosts to stack turns the choice around.
    cloud.add_aggregate("w-stack", [big], {"cpu_weight_multiplier": "-1.0"})
    assert _chosen(cloud) == "w-small"


def test_negative_cpu_multiplier_stacks(cloud, weigh_with):
    weigh_with("resources.CPUWeigher", cpu_weight_multiplier=-1.0)
    cloud.add_host("w-big", vcpus=16)
    cloud.add_host("w-small", vcpus=8)
    assert _chosen(cloud) == "w-small"


def test_io_ops_weigher_prefers_quiet_hosts(cloud, weigh_with):
    weigh_with("load.IoOpsWeigher")
    cloud.add_host("w-busy", stats={"io_workload": "3"})
    cloud.add_host("w-quiet", stats={"io_workload": "0"})
    assert _chosen(cloud) == "w-quiet"


def test_num_instances_weigher_packs_with_positive_multiplier(cloud, weigh_with):
    weigh_with("load.NumInstancesWeigher", num_instances_weight_multiplier=1.0)
    cloud.add_host("w-empty", stats={"num_instances": "0"})
    cloud.add_host("w-used", stats={"num_instances": "4"})
    assert _chosen(cloud) == "w-used"


def test_hypervisor_version_weigher(cloud, weigh_with):
    weigh_with("hypervisor_version.HypervisorVersionWeigher")
    cloud.add_host("w-old", hypervisor_version=8000000)
    cloud.add_host("w-new", hypervisor_version=9000000)
    assert _chosen(cloud) == "w-new"


def test_build_failure_weigher(cloud, weigh_with):
    weigh_with("build_failure.BuildFailureWeigher")
    cloud.add_host("w-failing", stats={"failed_builds": "3"})
    cloud.add_host("w-healthy")
    for _ in range(3):
        assert _chosen(cloud) == "w-healthy"


def test_cross_cell_weigher_prefers_the_named_cell(cloud, weigh_with):
    weigh_with("cross_cell.CrossCellWeigher")
    cloud.add_host("w-here")
    destination = objects.Destination(cell=cloud.cell, allow_cross_cell_move=True)
    # One cell only: every host is in it and all weigh the same; the point
    # is that a request naming a cell runs through the weigher.
    assert _chosen(cloud, cloud.spec(requested_destination=destination)) == "w-here"


def test_shuffle_best_same_weighed_hosts(cloud, weigh_with, flags):
    weigh_with("build_failure.BuildFailureWeigher")
    flags("filter_scheduler", shuffle_best_same_weighed_hosts=True)
    for i in range(4):
        cloud.add_host(f"w-same-{i}")
    chosen = {_chosen(cloud) for _ in range(12)}
    # Without shuffling every request would take the first of the ties.
    assert len(chosen) > 1


def test_a_computes_build_failures_reach_the_scheduler(cloud, weigh_with):
    """The compute counts failed builds on its node record; the scheduler's
    cached host state picks the count up and BuildFailureWeigher avoids the
    host until a build there succeeds."""
    from nova.compute.resource_tracker import ResourceTracker
    from nova.scheduler import manager

    weigh_with("build_failure.BuildFailureWeigher")
    flaky = cloud.add_host("w-flaky")
    cloud.add_host("w-steady")
    tracker = ResourceTracker("w-flaky", driver=None)
    tracker.compute_nodes = {"w-flaky": flaky}
    scheduler = manager.SchedulerManager("s")

    def chosen():
        [[selection, *_]] = select(cloud.ctxt, cloud.spec(), scheduler=scheduler)
        return selection.service_host

    chosen()  # fills the scheduler's host state cache
    tracker.build_finished(cloud.ctxt, "w-flaky", failed=True)
    tracker.build_finished(cloud.ctxt, "w-flaky", failed=True)
    assert (
        objects.ComputeNode.get_by_uuid(cloud.ctxt, flaky.uuid).stats["failed_builds"]
        == "2"
    )
    assert {chosen() for _ in range(3)} == {"w-steady"}
    assert scheduler.host_manager._host_states[flaky.uuid].failed_builds == 2
    tracker.build_finished(cloud.ctxt, "w-flaky", failed=False)
    assert (
        objects.ComputeNode.get_by_uuid(cloud.ctxt, flaky.uuid).stats["failed_builds"]
        == "0"
    )
