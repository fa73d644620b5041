"""Allocation candidates against a real Placement.

Every query is confined to the test's own aggregate, so providers other
tests created never show up.
"""

import uuid

import pytest

from placement_client import RequestGroup, exception

SMALL = {"VCPU": 2, "MEMORY_MB": 1024}


@pytest.fixture
def hosts(make_provider):
    """Three compute nodes: a fast one, a plain one, one too small."""
    return {
        "fast": make_provider(
            {"VCPU": 4, "MEMORY_MB": 2048}, traits=["HW_CPU_X86_AVX2"]
        ),
        "plain": make_provider({"VCPU": 8, "MEMORY_MB": 4096}),
        "tiny": make_provider({"VCPU": 1, "MEMORY_MB": 4096}),
    }


def _providers(candidates) -> set[str]:
    return {rp for ar in candidates.allocation_requests for rp in ar["allocations"]}


def test_resources_select_hosts_with_capacity(placement_client, hosts, aggregate):
    candidates = placement_client.get_allocation_candidates(
        SMALL, member_of=[aggregate]
    )

    assert _providers(candidates) == {hosts["fast"], hosts["plain"]}
    request = next(
        ar
        for ar in candidates.allocation_requests
        if hosts["plain"] in ar["allocations"]
    )
    assert request["allocations"][hosts["plain"]]["resources"] == SMALL
    summary = candidates.provider_summaries[hosts["fast"]]
    assert summary["resources"]["VCPU"] == {"capacity": 4, "used": 0}
    assert summary["traits"] == ["HW_CPU_X86_AVX2"]


def test_required_and_forbidden_traits(placement_client, hosts, aggregate):
    def providers(**kwargs):
        return _providers(
            placement_client.get_allocation_candidates(
                SMALL, member_of=[aggregate], **kwargs
            )
        )

    assert providers(required_traits=["HW_CPU_X86_AVX2"]) == {hosts["fast"]}
    assert providers(forbidden_traits=["HW_CPU_X86_AVX2"]) == {hosts["plain"]}
    # Any of several traits (microversion 1.39).
    assert providers(required_traits=[{"HW_CPU_X86_AVX2", "HW_CPU_X86_SSE42"}]) == {
        hosts["fast"]
    }


def test_member_of(placement_client, hosts, aggregate):
    elsewhere = str(uuid.uuid4())

    def providers(member_of):
        return _providers(
            placement_client.get_allocation_candidates(SMALL, member_of=member_of)
        )

    assert providers([elsewhere]) == set()
    assert providers([[elsewhere, aggregate]]) == {hosts["fast"], hosts["plain"]}
    assert providers([elsewhere, aggregate]) == set()


def test_limit(placement_client, hosts, aggregate):
    candidates = placement_client.get_allocation_candidates(
        SMALL, member_of=[aggregate], limit=1
    )

    assert len(candidates.allocation_requests) == 1
    assert _providers(candidates) <= {hosts["fast"], hosts["plain"]}


def test_granular_group_in_nested_tree(placement_client, make_provider, aggregate):
    compute = make_provider({"VCPU": 4, "MEMORY_MB": 2048})
    nic = make_provider({"SRIOV_NET_VF": 8}, parent=compute)
    other_compute = make_provider({"VCPU": 4, "MEMORY_MB": 2048})
    make_provider({"SRIOV_NET_VF": 8}, parent=other_compute)

    candidates = placement_client.get_allocation_candidates(
        SMALL,
        in_tree=compute,
        groups={"_NET": RequestGroup({"SRIOV_NET_VF": 2})},
        group_policy="none",
    )

    assert len(candidates.allocation_requests) == 1
    request = candidates.allocation_requests[0]
    assert request["allocations"] == {
        compute: {"resources": SMALL},
        nic: {"resources": {"SRIOV_NET_VF": 2}},
    }
    assert request["mappings"]["_NET"] == [nic]
    assert candidates.provider_summaries[nic]["parent_provider_uuid"] == compute


def test_unknown_trait_is_a_bad_request(placement_client):
    with pytest.raises(exception.PlacementAPIError) as raised:
        placement_client.get_allocation_candidates(
            SMALL, required_traits=["CUSTOM_NEVER_DEFINED_ANYWHERE"]
        )
    assert raised.value.status == 400
