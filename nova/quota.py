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

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import sqlalchemy as sa
from oslo_log import log as logging

import nova.conf
from nova import exception, placement, scatter_gather
from nova.db import engines
from nova.db.api import models

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


def _class_rows(session, class_name: str) -> dict[str, int]:
    rows = session.execute(
        sa.select(models.QuotaClass.resource, models.QuotaClass.hard_limit).where(
            models.QuotaClass.class_name == class_name
        )
    )
    return {r: limit for r, limit in rows if r in RESOURCES}


def class_limits(context, class_name: str = DEFAULT_QUOTA_CLASS) -> dict[str, int]:
    """A quota class's limits; the configured defaults fill what it lacks."""
    limits = default_limits()
    with engines.transaction(context.api_db_connection) as session:
        limits.update(_class_rows(session, DEFAULT_QUOTA_CLASS))
        if class_name != DEFAULT_QUOTA_CLASS:
            limits.update(_class_rows(session, class_name))
    return limits


def _project_rows(session, project_id: str) -> dict[str, int]:
    rows = session.execute(
        sa.select(models.Quota.resource, models.Quota.hard_limit).where(
            models.Quota.project_id == project_id
        )
    )
    return {r: limit for r, limit in rows if r in RESOURCES}


def _user_rows(session, project_id: str, user_id: str) -> dict[str, int]:
    rows = session.execute(
        sa.select(
            models.ProjectUserQuota.resource, models.ProjectUserQuota.hard_limit
        ).where(
            models.ProjectUserQuota.project_id == project_id,
            models.ProjectUserQuota.user_id == user_id,
        )
    )
    return {r: limit for r, limit in rows if r in RESOURCES}


def get_limits(context, project_id: str, user_id: str | None = None) -> dict[str, int]:
    """Every resource's limit for the project, or for the user within it."""
    limits = class_limits(context)
    with engines.transaction(context.api_db_connection) as session:
        limits.update(_project_rows(session, project_id))
        if user_id is not None:
            limits.update(_user_rows(session, project_id, user_id))
    return {k: UNLIMITED if v is None else v for k, v in limits.items()}


def _upsert(session, model, criteria: dict, resource: str, limit: int) -> None:
    columns = [getattr(model, k) == v for k, v in criteria.items()]
    result = session.execute(
        sa.update(model)
        .where(*columns, model.resource == resource)
        .values(hard_limit=limit)
    )
    if result.rowcount == 0:
        session.add(model(**criteria, resource=resource, hard_limit=limit))


def set_limits(
    context, project_id: str, limits: Mapping[str, int], user_id: str | None = None
) -> None:
    """Store limits of the project, or of the user within it, at once."""
    with engines.transaction(context.api_db_connection) as session:
        for resource, limit in limits.items():
            if user_id is None:
                _upsert(
                    session, models.Quota, {"project_id": project_id}, resource, limit
                )
            else:
                _upsert(
                    session,
                    models.ProjectUserQuota,
                    {"project_id": project_id, "user_id": user_id},
                    resource,
                    limit,
                )


def set_class_limits(context, class_name: str, limits: Mapping[str, int]) -> None:
    """Store limits of a quota class."""
    with engines.transaction(context.api_db_connection) as session:
        for resource, limit in limits.items():
            _upsert(
                session,
                models.QuotaClass,
                {"class_name": class_name},
                resource,
                limit,
            )


def delete_limits(context, project_id: str, user_id: str | None = None) -> None:
    """Forget the project's stored limits (and its users'), or one user's."""
    with engines.transaction(context.api_db_connection) as session:
        user_rows = sa.delete(models.ProjectUserQuota).where(
            models.ProjectUserQuota.project_id == project_id
        )
        if user_id is not None:
            session.execute(user_rows.where(models.ProjectUserQuota.user_id == user_id))
            return
        session.execute(user_rows)
        session.execute(
            sa.delete(models.Quota).where(models.Quota.project_id == project_id)
        )


# -- usage --------------------------------------------------------------------


def _not_queued_for_delete():
    return sa.or_(
        models.InstanceMapping.queued_for_delete.is_(None),
        models.InstanceMapping.queued_for_delete == sa.false(),
    )


def _mapping_criteria(project_id: str, user_id: str | None) -> list:
    criteria = [models.InstanceMapping.project_id == project_id]
    if user_id is not None:
        criteria.append(models.InstanceMapping.user_id == user_id)
    return criteria


def _build_request_size(instance_document: str | None) -> tuple[int, int]:
    """(vcpus, memory_mb) of the instance a build request holds."""
    if not instance_document:
        return 0, 0
    instance = json.loads(instance_document)["nova_object.data"]
    return int(instance.get("vcpus") or 0), int(instance.get("memory_mb") or 0)


def _count_build_requests(context, project_id: str, user_id: str | None) -> dict:
    """Servers accepted but not yet in a cell: their build requests.

    Once the superconductor has put the instance in a cell its mapping
    names that cell; a build request it has not deleted yet is then
    counted by the cell, not here.
    """
    with engines.transaction(context.api_db_connection) as session:
        documents = session.scalars(
            sa.select(models.BuildRequest.instance)
            .join(
                models.InstanceMapping,
                models.InstanceMapping.instance_uuid
                == models.BuildRequest.instance_uuid,
            )
            .where(
                *_mapping_criteria(project_id, user_id),
                models.InstanceMapping.cell_id.is_(None),
                _not_queued_for_delete(),
            )
        ).all()
    sizes = [_build_request_size(document) for document in documents]
    return {
        "instances": len(sizes),
        "cores": sum(vcpus for vcpus, _ in sizes),
        "ram": sum(ram for _, ram in sizes),
    }


def _count_instances_in_cells(context, project_id: str, user_id: str | None) -> dict:
    """The live instances of every cell (cell0's failed builds included)
    plus the build requests not in a cell yet, as upstream counts them.

    A cell that does not answer counts nothing (upstream does the same).
    """
    from nova.objects.instance import InstanceList

    totals = _count_build_requests(context, project_id, user_id)
    for cell, counts in scatter_gather.scatter_gather_all_cells(
        context, lambda cctxt: InstanceList.get_counts(cctxt, project_id, user_id)
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
    with engines.transaction(context.api_db_connection) as session:
        instances = _count(
            session,
            models.InstanceMapping.id,
            *_mapping_criteria(project_id, user_id),
            _not_queued_for_delete(),
        )
    usages = placement.client().get_usages(project_id, user_id, context=context)
    return {
        "instances": instances,
        "cores": usages.get("VCPU", 0),
        "ram": usages.get("MEMORY_MB", 0),
    }


def _count(session, column, *criteria) -> int:
    return session.scalar(sa.select(sa.func.count(column)).where(*criteria)) or 0


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
    with engines.transaction(context.api_db_connection) as session:
        if "key_pairs" in wanted:
            owner = user_id if user_id is not None else context.user_id
            usages["key_pairs"] = _count(
                session, models.KeyPair.id, models.KeyPair.user_id == owner
            )
        if "server_groups" in wanted:
            criteria = [models.InstanceGroup.project_id == project_id]
            if user_id is not None:
                criteria.append(models.InstanceGroup.user_id == user_id)
            usages["server_groups"] = _count(
                session, models.InstanceGroup.id, *criteria
            )
        if "server_group_members" in wanted:
            usages["server_group_members"] = (
                0
                if group_uuid is None
                else _count(
                    session,
                    models.InstanceGroupMember.id,
                    models.InstanceGroupMember.group_id == models.InstanceGroup.id,
                    models.InstanceGroup.uuid == group_uuid,
                )
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
