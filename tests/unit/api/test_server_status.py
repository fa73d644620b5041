"""A server's status from its vm_state and task_state, and back."""

import pytest

from nova.api.openstack.compute import common


@pytest.mark.parametrize(
    "vm_state, task_state, status",
    [
        ("building", "scheduling", "BUILD"),
        ("building", None, "BUILD"),
        ("active", None, "ACTIVE"),
        ("active", "rebooting", "REBOOT"),
        ("active", "rebooting_hard", "HARD_REBOOT"),
        ("active", "rebuilding", "REBUILD"),
        ("active", "resize_prep", "RESIZE"),
        ("active", "deleting", "ACTIVE"),
        ("stopped", None, "SHUTOFF"),
        ("resized", None, "VERIFY_RESIZE"),
        ("resized", "resize_reverting", "REVERT_RESIZE"),
        ("error", None, "ERROR"),
        ("deleted", None, "DELETED"),
        ("soft-delete", None, "SOFT_DELETED"),
        ("shelved_offloaded", None, "SHELVED_OFFLOADED"),
        ("paused", "migrating", "MIGRATING"),
        ("no-such-state", None, "UNKNOWN"),
    ],
)
def test_status_from_state(vm_state, task_state, status):
    assert common.status_from_state(vm_state, task_state) == status


def test_states_from_status_default_task_means_any_task():
    vm_state_list, task_states = common.states_from_status(["active"])
    assert vm_state_list == ["active"]
    assert "default" in task_states


def test_states_from_a_task_status():
    vm_state_list, task_states = common.states_from_status(["REBOOT"])
    assert vm_state_list == ["active"]
    assert set(task_states) == {"rebooting", "reboot_pending", "reboot_started"}


def test_states_from_an_unknown_status():
    assert common.states_from_status(["bogus"]) == ([], [])
