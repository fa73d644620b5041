"""Deciding whether an inventory needs rewriting."""

from placement_client.provider_sets import _inventories_equal

FULL = {
    "total": 8,
    "reserved": 0,
    "min_unit": 1,
    "max_unit": 2147483647,
    "step_size": 1,
    "allocation_ratio": 1.0,
}


def test_defaults_are_filled_in_before_comparing():
    assert _inventories_equal({"VCPU": FULL}, {"VCPU": {"total": 8}})


def test_changed_field_or_class_differs():
    assert not _inventories_equal({"VCPU": FULL}, {"VCPU": {"total": 8, "reserved": 1}})
    assert not _inventories_equal({"VCPU": FULL}, {})
    assert not _inventories_equal({}, {"VCPU": {"total": 8}})
