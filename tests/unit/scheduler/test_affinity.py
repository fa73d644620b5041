"""Server group filters and soft weighers: members counted per host."""

import pytest

from nova import objects
from nova.conf import CONF
from nova.scheduler import weights
from nova.scheduler.filters.affinity_filter import (
    ServerGroupAffinityFilter,
    ServerGroupAntiAffinityFilter,
)
from nova.scheduler.weights.affinity import (
    ServerGroupSoftAffinityWeigher,
    ServerGroupSoftAntiAffinityWeigher,
)


def _group(policy, hosts, **rules):
    return objects.InstanceGroup(
        policy=policy, hosts=hosts, rules={k: str(v) for k, v in rules.items()}
    )


@pytest.mark.parametrize(
    ("hosts", "rules", "passes_h1"),
    [
        ([], {}, True),
        (["h1"], {}, False),
        (["h1"], {"max_server_per_host": 2}, True),
        (["h1", "h1"], {"max_server_per_host": 2}, False),
        (["h2", "h2"], {}, True),
    ],
)
def test_anti_affinity_counts_members_per_host(
    make_host, make_spec, hosts, rules, passes_h1
):
    spec = make_spec(instance_group=_group("anti-affinity", hosts, **rules))
    assert ServerGroupAntiAffinityFilter().host_passes(make_host("h1"), spec) is (
        passes_h1
    )


def test_affinity_follows_the_first_member(make_host, make_spec):
    empty = make_spec(instance_group=_group("affinity", []))
    assert ServerGroupAffinityFilter().host_passes(make_host("h2"), empty)
    placed = make_spec(instance_group=_group("affinity", ["h1"]))
    assert ServerGroupAffinityFilter().host_passes(make_host("h1"), placed)
    assert not ServerGroupAffinityFilter().host_passes(make_host("h2"), placed)


def test_hard_filters_ignore_soft_policies(make_host, make_spec):
    spec = make_spec(instance_group=_group("soft-anti-affinity", ["h1"]))
    assert ServerGroupAntiAffinityFilter().host_passes(make_host("h1"), spec)
    spec = make_spec(instance_group=_group("soft-affinity", ["h1"]))
    assert ServerGroupAffinityFilter().host_passes(make_host("h2"), spec)


def _ranked(weigher, spec, make_host):
    # h2 has more free memory: without a group the RAM weigher would win.
    hosts = [make_host("h1", free_ram=1024), make_host("h2", free_ram=8192)]
    return [h.host for _, h in weights.weigh_hosts([weigher], hosts, spec)]


def test_soft_affinity_prefers_the_members_host(make_host, make_spec):
    spec = make_spec(instance_group=_group("soft-affinity", ["h1", "h1"]))
    assert _ranked(ServerGroupSoftAffinityWeigher(), spec, make_host)[0] == "h1"
    spec = make_spec(instance_group=_group("soft-affinity", ["h2"]))
    assert _ranked(ServerGroupSoftAffinityWeigher(), spec, make_host)[0] == "h2"


def test_soft_anti_affinity_prefers_the_emptiest_host(make_host, make_spec):
    spec = make_spec(instance_group=_group("soft-anti-affinity", ["h1", "h2", "h2"]))
    assert _ranked(ServerGroupSoftAntiAffinityWeigher(), spec, make_host)[0] == "h1"


def test_soft_weighers_use_upstream_multipliers(make_host, make_spec):
    CONF.set_override("soft_affinity_weight_multiplier", 3.0, group="filter_scheduler")
    try:
        spec = make_spec(instance_group=_group("soft-affinity", ["h1"]))
        hosts = [make_host("h1"), make_host("h2")]
        ranked = weights.weigh_hosts([ServerGroupSoftAffinityWeigher()], hosts, spec)
        assert [(w, h.host) for w, h in ranked] == [(3.0, "h1"), (0.0, "h2")]
    finally:
        CONF.clear_override("soft_affinity_weight_multiplier", group="filter_scheduler")


def test_weighers_without_a_group_are_neutral(make_host, make_spec):
    ranked = weights.weigh_hosts(
        [ServerGroupSoftAffinityWeigher(), ServerGroupSoftAntiAffinityWeigher()],
        [make_host("h1"), make_host("h2")],
        make_spec(),
    )
    assert [w for w, _ in ranked] == [0.0, 0.0]
