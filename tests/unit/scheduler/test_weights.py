"""Weighers: normalization, multipliers, loading."""

from nova.conf import CONF
from nova.scheduler import weights
from nova.scheduler.weights.resources import CPUWeigher, DiskWeigher, RAMWeigher


def test_ram_weigher_spreads_by_default(make_host, make_spec):
    hosts = [make_host("small", free_ram=1024), make_host("big", free_ram=8192)]
    ranked = weights.weigh_hosts([RAMWeigher()], hosts, make_spec())
    assert [h.host for _, h in ranked] == ["big", "small"]
    assert [w for w, _ in ranked] == [1.0, 0.0]


def test_negative_multiplier_stacks(make_host, make_spec):
    CONF.set_override("ram_weight_multiplier", -1.0, group="filter_scheduler")
    try:
        hosts = [make_host("small", free_ram=1024), make_host("big", free_ram=8192)]
        ranked = weights.weigh_hosts([RAMWeigher()], hosts, make_spec())
        assert [h.host for _, h in ranked] == ["small", "big"]
    finally:
        CONF.clear_override("ram_weight_multiplier", group="filter_scheduler")


def test_weights_are_normalized_before_summing(make_host, make_spec):
    # RAM differences in MiB must not drown vCPU differences.
    a = make_host("a", free_ram=8192, vcpus=1)
    b = make_host("b", free_ram=8000, vcpus=64, disk=100)
    ranked = weights.weigh_hosts([RAMWeigher(), CPUWeigher()], [a, b], make_spec())
    assert [w for w, _ in ranked] == [1.0, 1.0]


def test_used_resources_count(make_host, make_spec):
    a, b = make_host("a", free_ram=4096), make_host("b", free_ram=4096)
    a.consume({"MEMORY_MB": 1024})
    ranked = weights.weigh_hosts([RAMWeigher()], [a, b], make_spec())
    assert ranked[0][1] is b
    assert a.num_instances == 1


def test_all_weighers_and_bad_names(caplog):
    loaded = weights.load_weighers([weights.ALL_WEIGHERS, "nope.Weigher"])
    assert {type(w) for w in loaded} >= {RAMWeigher, CPUWeigher, DiskWeigher}
    assert "nope.Weigher cannot be loaded" in caplog.text
