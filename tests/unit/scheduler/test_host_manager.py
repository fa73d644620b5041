"""Host states: Placement usage plus this scheduler's own recent claims."""

import time

from nova.scheduler import host_manager


def test_provider_summary_gives_capacity_and_use(make_host):
    state = make_host()
    state.update_from_provider_summary(
        {
            "resources": {
                "MEMORY_MB": {"capacity": 8192, "used": 1024},
                "VCPU": {"capacity": 64, "used": 4},
            }
        }
    )
    assert state.free_ram_mb == 7168
    assert state.vcpus_free == 60
    assert state.free_disk_mb == 0


def test_claims_placement_may_not_show_yet_are_counted():
    manager = host_manager.HostManager()
    before = time.monotonic()
    manager.claim_started("i1", "rp1", {"MEMORY_MB": 512})
    # Still running: counted whenever the summaries were read.
    assert manager._pending_claims(before) == {"rp1": [{"MEMORY_MB": 512}]}
    manager.claim_finished("i1", claimed=True)
    # Finished after the read began: the read may have missed it.
    assert manager._pending_claims(before) == {"rp1": [{"MEMORY_MB": 512}]}
    # Finished before the read began: Placement's answer includes it.
    assert manager._pending_claims(time.monotonic()) == {}


def test_failed_and_forgotten_claims_are_dropped():
    manager = host_manager.HostManager()
    manager.claim_started("i1", "rp1", {"VCPU": 1})
    manager.claim_finished("i1", claimed=False)
    manager.claim_started("i2", "rp1", {"VCPU": 1})
    manager.forget_claims(["i2"])
    assert manager._pending_claims(0.0) == {}
