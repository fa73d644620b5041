"""Query strings for GET /allocation_candidates."""

import pytest

from placement_client.allocation_candidates import RequestGroup, candidates_query


def test_unsuffixed_group():
    group = RequestGroup(
        {"VCPU": 2, "MEMORY_MB": 512},
        required_traits=["HW_CPU_X86_AVX2", {"CUSTOM_B", "CUSTOM_A"}],
        forbidden_traits=["COMPUTE_STATUS_DISABLED"],
        member_of=["agg1", ["agg3", "agg2"]],
        in_tree="root",
    )

    assert candidates_query(group, {}, limit=5, group_policy=None) == [
        ("resources", "MEMORY_MB:512,VCPU:2"),
        ("required", "HW_CPU_X86_AVX2,!COMPUTE_STATUS_DISABLED"),
        ("required", "in:CUSTOM_A,CUSTOM_B"),
        ("member_of", "agg1"),
        ("member_of", "in:agg2,agg3"),
        ("in_tree", "root"),
        ("limit", "5"),
    ]


def test_granular_groups_and_policy():
    query = candidates_query(
        RequestGroup({"VCPU": 1}),
        {
            "1": RequestGroup({"SRIOV_NET_VF": 1}, required_traits=["CUSTOM_PHYS"]),
            "_ACCEL": RequestGroup({"FPGA": 1}, in_tree="root"),
        },
        limit=None,
        group_policy="isolate",
    )

    assert query == [
        ("resources", "VCPU:1"),
        ("resources1", "SRIOV_NET_VF:1"),
        ("required1", "CUSTOM_PHYS"),
        ("resources_ACCEL", "FPGA:1"),
        ("in_tree_ACCEL", "root"),
        ("group_policy", "isolate"),
    ]


def test_forbidden_only_and_empty_resources():
    query = candidates_query(
        RequestGroup(forbidden_traits=["CUSTOM_X"]), {}, None, None
    )

    assert query == [("required", "!CUSTOM_X")]


@pytest.mark.parametrize("suffix", ["", "has space", "x" * 65, "dot.ted"])
def test_invalid_suffix(suffix):
    with pytest.raises(ValueError, match="suffix"):
        candidates_query(
            RequestGroup(), {suffix: RequestGroup({"VCPU": 1})}, None, None
        )


def test_bare_string_is_rejected():
    with pytest.raises(TypeError, match="HW_CPU_X86_AVX2"):
        RequestGroup({"VCPU": 1}, required_traits="HW_CPU_X86_AVX2").query()


def test_empty_alternative_is_rejected():
    with pytest.raises(ValueError, match="member_of"):
        RequestGroup({"VCPU": 1}, member_of=[[]]).query()
