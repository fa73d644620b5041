"""Helpers the compute API handlers share."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import nova.conf
from nova import exception, policy
from nova.api.openstack import validation
from nova.api.openstack.request import Request
from nova.compute.api import servers as server_api
from nova.states import vm_states

CONF = nova.conf.CONF


def limit_and_marker(req: Request) -> tuple[int, str | None]:
    """The page size (capped at ``[api] max_limit``) and the marker.

    :raises InvalidInput: a limit that is not a non-negative integer.
    """
    limit = CONF.api.max_limit
    if "limit" in req.GET:
        limit = min(validation.validate_integer(req.GET["limit"], "limit", 0), limit)
    return limit, req.GET.get("marker")


def injected_files(personality: list[dict]) -> list[tuple[str, str]]:
    """(path, base64 contents) of each personality item of a create or
    rebuild. The schema lets either key out; upstream answers 400 for that.

    :raises ValidationError: an item without ``path`` or ``contents``.
    """
    for item in personality:
        for key in ("path", "contents"):
            if key not in item:
                raise exception.ValidationError(
                    detail=f"Bad personality format: missing '{key}'"
                )
    return [(item["path"], item["contents"]) for item in personality]


# -- server status ------------------------------------------------------------

# The status a server shows for its (vm_state, task_state), as upstream maps
# them: the vm_state's "default" unless the task in progress has its own.
# Task states of operations nova does not implement yet are named here as
# the strings upstream uses, so statuses stay right once they arrive.
_REBOOT_TASKS = ("rebooting", "reboot_pending", "reboot_started")
_HARD_REBOOT_TASKS = ("rebooting_hard", "reboot_pending_hard", "reboot_started_hard")
_REBUILD_TASKS = ("rebuilding", "rebuild_block_device_mapping", "rebuild_spawning")
_RESIZE_TASKS = ("resize_prep", "resize_migrating", "resize_migrated", "resize_finish")

_STATE_MAP: dict[str, dict[str | None, str]] = {
    vm_states.ACTIVE: {
        "default": "ACTIVE",
        **dict.fromkeys(_REBOOT_TASKS, "REBOOT"),
        **dict.fromkeys(_HARD_REBOOT_TASKS, "HARD_REBOOT"),
        "updating_password": "PASSWORD",
        **dict.fromkeys(_REBUILD_TASKS, "REBUILD"),
        "migrating": "MIGRATING",
        **dict.fromkeys(_RESIZE_TASKS, "RESIZE"),
    },
    vm_states.BUILDING: {"default": "BUILD"},
    vm_states.STOPPED: {
        "default": "SHUTOFF",
        **dict.fromkeys(_RESIZE_TASKS, "RESIZE"),
        **dict.fromkeys(_REBUILD_TASKS, "REBUILD"),
    },
    vm_states.RESIZED: {
        "default": "VERIFY_RESIZE",
        "resize_reverting": "REVERT_RESIZE",
    },
    vm_states.PAUSED: {"default": "PAUSED", "migrating": "MIGRATING"},
    vm_states.SUSPENDED: {"default": "SUSPENDED"},
    vm_states.RESCUED: {"default": "RESCUE"},
    vm_states.ERROR: {"default": "ERROR", **dict.fromkeys(_REBUILD_TASKS, "REBUILD")},
    vm_states.DELETED: {"default": "DELETED"},
    vm_states.SOFT_DELETED: {"default": "SOFT_DELETED"},
    vm_states.SHELVED: {"default": "SHELVED"},
    vm_states.SHELVED_OFFLOADED: {"default": "SHELVED_OFFLOADED"},
}


def status_from_state(vm_state: str | None, task_state: str | None = None) -> str:
    """The API status of a server (``UNKNOWN`` for a state nova never sets)."""
    task_map = _STATE_MAP.get(vm_state, {"default": "UNKNOWN"})
    return task_map.get(task_state, task_map["default"])


def states_from_status(statuses: list[str]) -> tuple[list[str], list[str | None]]:
    """The vm_states and task_states whose servers show one of ``statuses``.

    The task states list holds "default" when a status is the vm_state's
    default one, meaning "whatever the task".
    """
    wanted = {status.strip().upper() for status in statuses}
    vm_state_set, task_state_set = set(), set()
    for vm_state, task_map in _STATE_MAP.items():
        for task_state, status in task_map.items():
            if status in wanted:
                vm_state_set.add(vm_state)
                task_state_set.add(task_state)
    return sorted(vm_state_set), sorted(task_state_set, key=str)


def get_server(
    context, server_id: str, expected_attrs=(), cell_down_support: bool = False
):
    """The server, from its cell or its build request; authorized later by
    the flow that acts on it.

    :raises InstanceNotFound: no such server, or another project's.
    """
    return server_api.ServersAPI().get(
        context, server_id, expected_attrs, cell_down_support=cell_down_support
    )


def get_instance(
    req: Request, server_id: str, rule: str, expected_attrs=(), read_deleted=False
):
    """The caller's server, once ``rule`` allows the caller on its owner;
    with ``read_deleted`` a deleted server too.

    Another project's server is not found (404) rather than forbidden.
    """
    context = req.nova_context
    if read_deleted:
        context = copy.copy(context)
        context.read_deleted = "yes"
    instance = get_server(context, server_id, expected_attrs)
    policy.authorize(
        context, rule, {"project_id": instance.project_id, "user_id": instance.user_id}
    )
    return instance


def datetime_str(value) -> str | None:
    """``2018-04-25T01:26:29.000000``: how records' times are shown."""
    if value is None:
        return None
    return value.replace(tzinfo=None).strftime("%Y-%m-%dT%H:%M:%S.%f")


def page_of(req: Request, items: list, key: Callable[[Any], Any]) -> list:
    """The page the request's limit and marker select from ``items``
    (already in order): those after the item whose ``key`` is the marker.

    :raises MarkerNotFound: no item has the marker as its key.
    """
    limit, marker = limit_and_marker(req)
    if marker is not None:
        keys = [str(key(item)) for item in items]
        if marker not in keys:
            raise exception.MarkerNotFound(marker=marker)
        items = items[keys.index(marker) + 1 :]
    return items[:limit]
