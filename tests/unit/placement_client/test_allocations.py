"""Doubling up allocations for a move."""

from placement_client.allocations import merge_for_move


def _alloc(**resources):
    return {"resources": resources}


def test_move_to_another_host_keeps_source():
    current = {"src": {"resources": {"VCPU": 2}, "generation": 5}}

    merged = merge_for_move(current, {"dst": _alloc(VCPU=4)})

    assert merged == {"src": _alloc(VCPU=2), "dst": _alloc(VCPU=4)}


def test_shared_provider_is_not_counted_twice():
    current = {"src": _alloc(VCPU=2), "nfs": _alloc(DISK_GB=10)}

    merged = merge_for_move(current, {"dst": _alloc(VCPU=2), "nfs": _alloc(DISK_GB=10)})

    assert merged == {
        "src": _alloc(VCPU=2),
        "nfs": _alloc(DISK_GB=10),
        "dst": _alloc(VCPU=2),
    }


def test_resize_on_same_host_sums_both_flavors():
    current = {"host": _alloc(VCPU=2, MEMORY_MB=512)}

    merged = merge_for_move(current, {"host": _alloc(VCPU=4, DISK_GB=1)})

    assert merged == {"host": _alloc(VCPU=6, MEMORY_MB=512, DISK_GB=1)}


def test_inputs_are_not_modified():
    current = {"host": _alloc(VCPU=2)}
    requested = {"host": _alloc(VCPU=4)}

    merge_for_move(current, requested)

    assert current == {"host": _alloc(VCPU=2)}
    assert requested == {"host": _alloc(VCPU=4)}
