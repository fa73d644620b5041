"""Quotas: per-project (and per-user) limits, and usage counted from records.

Limits live in the API database, looked up most specific first:

1. ``project_user_quotas`` -- a user's limit within a project;
2. ``quotas`` -- the project's limit;
3. ``quota_classes`` of the ``default`` class;
4. ``[quota]`` options in nova.conf.

-1 means unlimited. Usage is never stored: it is counted from the records
themselves each time (see :data:`COUNTED`), so it cannot drift. Servers
are counted, as upstream counts them, from the live instances of every
cell plus the build requests of servers not in a cell yet; with ``[quota]
count_usage_from_placement`` their cores and RAM come from Placement's
usages instead (instances from the API database's instance mappings).

How to enforce a limit (the engine's whole public API for callers)::

    from nova import quota

    # before creating: would these additions fit?
    quota.enforce(context, {"instances": 2, "cores": 4, "ram": 1024},
                  project_id=context.project_id, user_id=context.user_id)
    ... create the records, committed ...
    # after creating: racing requests may have created theirs too.
    try:
        quota.recheck(context, ["instances", "cores", "ram"],
                      project_id=context.project_id, user_id=context.user_id)
    except exception.OverQuota:
        ... delete what was just created, re-raise ...

:func:`recheck` counts what is committed, including the caller's own new
records, with a zero delta. Every racer rechecks after its commit, so the
last one to commit sees everybody's records: no combination of concurrent
requests ends over a limit (a racer may be refused when it need not have
been, as upstream accepts with ``[quota] recheck_quota``).

Server group members are limited per group: pass ``group_uuid`` to
:func:`enforce`/:func:`recheck` for ``server_group_members``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from oslo_log import log as logging

import nova.conf
from nova import exception, objects, placement, scatter_gather

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

DEFAULT_QUOTA_CLASS = "default"
UNLIMITED = -1

# API names of the resources, with the [quota] option holding each default.
RESOURCE_OPTIONS: dict[str, str] = {
    "instances": "instances",
    "cores": "cores",
    "ram": "ram",
    "metadata_items": "metadata_items",
    "injected_files": "injected_files",
    "injected_file_content_bytes": "injected_file_content_bytes",
    "injected_file_path_bytes": "injected_file_path_length",
    "key_pairs": "key_pairs",
    "server_groups": "server_groups",
    "server_group_members": "server_group_members",
}
# nova-network's resources: no longer limited by nova, still stored and
# shown (until 2.36 in quota sets, 2.50 in quota classes) with upstream's
# last defaults, so clients that read or write them keep working.
LEGACY_NETWORK_DEFAULTS = {
    "fixed_ips": -1,
    "floating_ips": 10,
    "security_groups": 10,
    "security_group_rules": 20,
}
RESOURCES = (*RESOURCE_OPTIONS, *LEGACY_NETWORK_DEFAULTS)

# Resources whose usage is counted from records; the others limit the size
# of one request (metadata items, injected files) and have no usage.
COUNTED = frozenset(
    {"instances", "cores", "ram", "key_pairs", "server_groups", "server_group_members"}
)


# -- limits -------------------------------------------------------------------


def default_limits() -> dict[str, int]:
    """The ``[quota]`` options: limits when nothing is stored."""
    limits = {name: getattr(CONF.quota, opt) for name, opt in RESOURCE_OPTIONS.items()}
    return {**limits, **LEGACY_NETWORK_DEFAULTS}


def _known(limits: Mapping[str, int | None]) -> dict[str, int | None]:
    """The stored limits of resources this API knows (rows of others stay
    stored, unused)."""
    return {
        resource: limit for resource, limit in limits.items() if resource in RESOURCES
    }


def class_limits(context, class_name: str = DEFAULT_QUOTA_CLASS) -> dict[str, int]:
    """A quota class's limits; the configured defaults fill what it lacks."""
    limits = default_limits()
    limits.update(
        _known(objects.Quotas.get_all_class_by_name(context, DEFAULT_QUOTA_CLASS))
    )
    if class_name != DEFAULT_QUOTA_CLASS:
        limits.update(_known(objects.Quotas.get_all_class_by_name(context, class_name)))
    return limits


def get_limits(context, project_id: str, user_id: str | None = None) -> dict[str, int]:
    """Every resource's limit for the project, or for the user within it."""
    limits = class_limits(context)
    limits.update(_known(objects.Quotas.get_all_by_project(context, project_id)))
    if user_id is not None:
        limits.update(
            _known(
                objects.Quotas.get_all_by_project_and_user(context, project_id, user_id)
            )
        )
    return {k: UNLIMITED if v is None else v for k, v in limits.items()}


def set_limits(
    context, project_id: str, limits: Mapping[str, int], user_id: str | None = None
) -> None:
    """Store limits of the project, or of the user within it, at once."""
    objects.Quotas.set_limits(context, project_id, limits, user_id=user_id)


def set_class_limits(context, class_name: str, limits: Mapping[str, int]) -> None:
    """Store limits of a quota class."""
    objects.Quotas.set_class_limits(context, class_name, limits)


def delete_limits(context, project_id: str, user_id: str | None = None) -> None:
    """Forget the project's stored limits (and its users'), or one user's."""
    if user_id is None:
        objects.Quotas.destroy_all_by_project(context, project_id)
    else:
        objects.Quotas.destroy_all_by_project_and_user(context, project_id, user_id)


# -- usage --------------------------------------------------------------------


def _count_instances_in_cells(context, project_id: str, user_id: str | None) -> dict:
    """The live instances of every cell (cell0's failed builds included)
    plus the build requests not in a cell yet, as upstream counts them.

    A cell that does not answer counts nothing (upstream does the same).

    The superconductor creates an instance in its cell before it deletes
    the build request: a server read as a build request here is not
    counted again if its instance has appeared in a cell by the time the
    cells are read.
    """
    pending = objects.BuildRequestList.get_sizes(context, project_id, user_id)
    totals = objects.BuildRequestList.totals(pending)
    for cell, counts in scatter_gather.scatter_gather_all_cells(
        context,
        lambda cctxt: objects.InstanceList.get_counts(
            cctxt, project_id, user_id, exclude_uuids=pending
        ),
    ):
        if isinstance(counts, BaseException):
            LOG.warning(
                "Cell %s did not answer: its instances are not counted: %s",
                cell.uuid,
                counts,
            )
            continue
        for resource, amount in counts.items():
            totals[resource] += amount
    return totals


def _count_instances_with_placement(
    context, project_id: str, user_id: str | None
) -> dict:
    """Instances from their mappings (servers not being deleted), cores
    and RAM from what Placement has allocated to the project (user)."""
    counts = objects.InstanceMappingList.get_counts(context, project_id, user_id)
    usages = placement.client().get_usages(project_id, user_id, context=context)
    return {
        "instances": counts["instances"],
        "cores": usages.get("VCPU", 0),
        "ram": usages.get("MEMORY_MB", 0),
    }


def get_usages(
    context,
    project_id: str,
    user_id: str | None = None,
    resources: Iterable[str] = COUNTED,
    group_uuid: str | None = None,
) -> dict[str, int]:
    """What the project (or the user within it) uses of counted resources.

    ``key_pairs`` are always a user's (key pairs belong to users);
    ``server_group_members`` is counted in ``group_uuid``'s group.
    """
    wanted = set(resources) & COUNTED
    usages: dict[str, int] = {}
    if wanted & {"instances", "cores", "ram"}:
        if CONF.quota.count_usage_from_placement:
            counts = _count_instances_with_placement(context, project_id, user_id)
        else:
            counts = _count_instances_in_cells(context, project_id, user_id)
        usages.update({k: v for k, v in counts.items() if k in wanted})
    if "key_pairs" in wanted:
        owner = user_id if user_id is not None else context.user_id
        usages["key_pairs"] = objects.KeyPairList.get_count_by_user(context, owner)
    if "server_groups" in wanted:
        usages.update(
            objects.InstanceGroupList.get_counts(context, project_id, user_id)
        )
    if "server_group_members" in wanted:
        usages["server_group_members"] = (
            0
            if group_uuid is None
            else objects.InstanceGroup.count_members(context, group_uuid)
        )
    return usages


# -- enforcement --------------------------------------------------------------


@dataclass(frozen=True)
class _Scope:
    project_id: str
    user_id: str | None


def _check(context, deltas: Mapping[str, int], scope: _Scope, group_uuid) -> None:
    limits = get_limits(context, scope.project_id, scope.user_id)
    usages = get_usages(
        context, scope.project_id, scope.user_id, deltas, group_uuid=group_uuid
    )
    overs = sorted(
        resource
        for resource, delta in deltas.items()
        if limits[resource] != UNLIMITED
        and usages.get(resource, 0) + delta > limits[resource]
    )
    if overs:
        raise exception.OverQuota(
            overs=", ".join(overs),
            overs_list=overs,
            quotas={r: limits[r] for r in deltas},
            usages={r: usages.get(r, 0) for r in deltas},
            deltas=dict(deltas),
        )


def enforce(
    context,
    deltas: Mapping[str, int],
    project_id: str,
    user_id: str | None = None,
    group_uuid: str | None = None,
) -> None:
    """Refuse additions that would take usage past a limit.

    Checked against the project's limits and, with ``user_id``, the user's
    too. Resources that are not counted (metadata items, injected files)
    are compared as they are: the delta is the requested amount.

    :raises OverQuota: with ``overs_list``, ``quotas``, ``usages`` and
        ``deltas`` in its kwargs for the caller's message.
    """
    unknown = set(deltas) - set(RESOURCES)
    if unknown:
        raise exception.QuotaResourceUnknown(unknown=sorted(unknown))
    if CONF.quota.driver == "nova.quota.NoopQuotaDriver":
        return
    # Key pairs are limited per user only.
    project_deltas = {r: d for r, d in deltas.items() if r != "key_pairs"}
    if project_deltas:
        _check(context, project_deltas, _Scope(project_id, None), group_uuid)
    if user_id is not None or "key_pairs" in deltas:
        _check(
            context,
            deltas,
            _Scope(project_id, user_id or context.user_id),
            group_uuid,
        )


def recheck(
    context,
    resources: Iterable[str],
    project_id: str,
    user_id: str | None = None,
    group_uuid: str | None = None,
) -> None:
    """After creating, that usage (own records included) is within limits.

    A no-op when ``[quota] recheck_quota`` is off.

    :raises OverQuota: the caller must remove what it created.
    """
    if not CONF.quota.recheck_quota:
        return
    enforce(
        context,
        dict.fromkeys(resources, 0),
        project_id,
        user_id=user_id,
        group_uuid=group_uuid,
    )


def over_quota_message(
    exc: exception.OverQuota, requested: Mapping[str, int], counted: bool = False
) -> str:
    """Upstream's wording for a refused server create: the first resource
    over, how much was asked, used and allowed.

    ``counted``: the usages in ``exc`` already include ``requested`` (a
    refusal by :func:`recheck`).
    """
    resource = exc.kwargs["overs_list"][0]
    asked = requested.get(resource, 0)
    used = exc.kwargs["usages"][resource] - (asked if counted else 0)
    return (
        f"Quota exceeded for {resource}: Requested {asked}, "
        f"but already used {used} of {exc.kwargs['quotas'][resource]} {resource}"
    )
