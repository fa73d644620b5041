"""Weighers and their per-aggregate multipliers."""

from nova import objects
from nova.scheduler import weights
from nova.scheduler.weights.build_failure import BuildFailureWeigher
from nova.scheduler.weights.cross_cell import CrossCellWeigher
from nova.scheduler.weights.resources import RAMWeigher


def test_aggregate_metadata_overrides_the_multiplier(make_host):
    plain = make_host("plain")
    tuned = make_host(
        "tuned",
        aggregates=[
            objects.Aggregate(name="a", metadata={"ram_weight_multiplier": "2.5"}),
            objects.Aggregate(name="b", metadata={"ram_weight_multiplier": "-1"}),
            objects.Aggregate(name="c", metadata={"ram_weight_multiplier": "bad"}),
        ],
    )
    assert RAMWeigher().weight_multiplier(plain) == 1.0
    # The smallest of the aggregates' values wins, as upstream.
    assert RAMWeigher().weight_multiplier(tuned) == -1.0


def test_build_failures_count_against_a_host(make_host, make_spec):
    failing = make_host("failing", failed_builds=2)
    healthy = make_host("healthy", failed_builds=0)
    ranked = weights.weigh_hosts(
        [BuildFailureWeigher()], [failing, healthy], make_spec()
    )
    assert [h.host for _, h in ranked] == ["healthy", "failing"]


def test_cross_cell_weigher_prefers_the_source_cell(make_host, make_spec):
    cell = objects.CellMapping(uuid="c1c1c1c1-0000-4000-8000-000000000000")
    home, away = make_host("home"), make_host("away")
    home.cell_uuid, away.cell_uuid = cell.uuid, "other"
    destination = objects.Destination(cell=cell, allow_cross_cell_move=True)
    spec = make_spec(requested_destination=destination)
    assert CrossCellWeigher().weigh(home, spec) == 1
    assert CrossCellWeigher().weigh(away, spec) == -1
    assert CrossCellWeigher().weigh(home, make_spec()) == 0


def test_shuffle_only_reorders_the_best_ties(make_host, make_spec, flags):
    flags("filter_scheduler", shuffle_best_same_weighed_hosts=True)
    hosts = [make_host(f"tie-{i}", free_ram=8192) for i in range(4)]
    hosts.append(make_host("small", free_ram=1024))
    firsts = set()
    for _ in range(30):
        ranked = weights.weigh_hosts([RAMWeigher()], hosts, make_spec())
        assert ranked[-1][1].host == "small"
        firsts.add(ranked[0][1].host)
    assert len(firsts) > 1
