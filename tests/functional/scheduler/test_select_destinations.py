"""select_destinations against the real Placement and SQLite cell databases:
claims, multi-create, alternates, requested hosts, spreading."""

import collections
import concurrent.futures

import pytest
from oslo_utils import uuidutils

from nova import exception, objects
from nova.scheduler import manager
from tests.functional.scheduler.conftest import select


def test_multi_create_spreads_and_claims(cloud):
    a, b = cloud.add_host("sched-a"), cloud.add_host("sched-b")
    uuids = [uuidutils.generate_uuid() for _ in range(4)]
    selections = select(cloud.ctxt, cloud.spec(), uuids)
    chosen = [s[0].compute_node_uuid for s in selections]
    assert sorted(chosen) == sorted([a.uuid, a.uuid, b.uuid, b.uuid])
    # The other host is the alternate, its allocation request ready to claim.
    first = selections[0]
    assert len(first) == 2 and first[1].compute_node_uuid != first[0].compute_node_uuid
    assert first[1].allocation_request and first[0].cell_uuid
    for uuid, node in zip(uuids, chosen, strict=True):
        allocations = cloud.client.get_allocations_for_consumer(uuid).allocations
        assert allocations[node]["resources"][cloud.resource_class] == 1


def test_filters_say_how_many_hosts_they_removed(cloud, flags):
    cloud.add_host("sched-down-1", up=False)
    cloud.add_host("sched-down-2", up=False)
    cloud.add_host("sched-up")
    flags("filter_scheduler", enabled_filters=["ComputeFilter"])
    # Only the down hosts may take it; the up one is excluded by hint.
    with pytest.raises(exception.NoValidHost) as error:
        select(cloud.ctxt, cloud.spec(ignore_hosts=["sched-up"]))
    assert "ComputeFilter removed 2 of 2" in str(error.value)


def test_placement_shortage_names_the_resource_class(cloud):
    cloud.add_host("sched-small", units=2)
    with pytest.raises(exception.NoValidHost) as error:
        select(cloud.ctxt, cloud.spec(units=3))
    assert (
        f"no resource provider has enough free {cloud.resource_class} (requested 3)"
        in str(error.value)
    )


def test_a_request_that_does_not_all_fit_claims_nothing(cloud):
    cloud.add_host("sched-one", units=2)
    uuids = [uuidutils.generate_uuid() for _ in range(3)]
    with pytest.raises(exception.NoValidHost, match="room for only 2 of the 3"):
        select(cloud.ctxt, cloud.spec(), uuids)
    for uuid in uuids:
        assert cloud.client.get_allocations_for_consumer(uuid).allocations == {}


def test_forced_and_ignored_hosts(cloud):
    cloud.add_host("sched-x")
    y = cloud.add_host("sched-y")
    [[chosen, *_]] = select(cloud.ctxt, cloud.spec(ignore_hosts=["sched-x"]))
    assert chosen.compute_node_uuid == y.uuid
    destination = objects.Destination(host="sched-x")
    [[chosen, *alternates]] = select(
        cloud.ctxt, cloud.spec(requested_destination=destination)
    )
    assert chosen.service_host == "sched-x" and alternates == []


def test_requested_node_is_asked_of_placement_and_explained(cloud):
    cloud.add_host("sched-full", units=1)
    cloud.add_host("sched-free", units=4)
    destination = objects.Destination(host="sched-full", node="sched-full")
    with pytest.raises(exception.NoValidHost) as error:
        select(cloud.ctxt, cloud.spec(units=2, requested_destination=destination))
    assert "the requested host or node" in str(error.value)
    destination = objects.Destination(host="sched-nowhere")
    with pytest.raises(exception.NoValidHost, match="on host sched-nowhere"):
        select(cloud.ctxt, cloud.spec(requested_destination=destination))


def test_granular_groups_claim_each_group(cloud):
    node = cloud.add_host("sched-granular", units=4)
    rc = cloud.resource_class
    spec_obj = cloud.spec(
        units=1,
        extra_specs={f"resources1:{rc}": "1", f"resources2:{rc}": "2"},
    )
    [[chosen, *_]] = select(cloud.ctxt, spec_obj)
    assert chosen.compute_node_uuid == node.uuid
    usages = cloud.client.get_provider_usages(node.uuid)
    assert usages[rc] == 4  # 1 unsuffixed + 1 + 2


def test_a_burst_spreads_over_equal_hosts(cloud):
    """Concurrent requests to one scheduler see each other's claims at
    once: on four equal hosts, forty builds land ten on each (give or take
    the races of concurrent claims), not all on the first."""
    hosts = [cloud.add_host(f"sched-burst-{i}", units=20, vcpus=20) for i in range(4)]
    scheduler = manager.SchedulerManager("s")

    def one(_):
        [[chosen, *_]] = select(cloud.ctxt, cloud.spec(), scheduler=scheduler)
        return chosen.compute_node_uuid

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        counts = collections.Counter(pool.map(one, range(40)))
    assert set(counts) == {h.uuid for h in hosts}
    assert max(counts.values()) <= 13, counts
