"""Listing instances across cells: queried in parallel, merged in order.

Every cell database is asked for one page in the requested order at the
same time, each in its own thread with a deadline; the pages are then merged
into one. A cell that fails or misses the deadline is left out (with a
warning) when ``[api] list_records_by_skipping_down_cells`` allows it.

Paging with a marker works across cells: the marker instance's sort values
are looked up in its own cell, and every other cell continues after its own
last instance that sorts before those values.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
from collections.abc import Sequence
from typing import Any

import nova.conf
from nova import context as nova_context
from nova import exception, objects, scatter_gather
from nova.objects import base as obj_base

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

_REVERSED = {"asc": "desc", "desc": "asc"}


def _compare(a: Any, b: Any) -> int:
    # None first in ascending order, as SQLite and MySQL sort NULL.
    if a == b:
        return 0
    if a is None:
        return -1
    if b is None:
        return 1
    return -1 if a < b else 1


def _sort_key(sort_keys: Sequence[str], sort_dirs: Sequence[str]):
    def compare(a, b) -> int:
        for key, direction in zip(sort_keys, sort_dirs, strict=True):
            result = _compare(
                getattr(a, key) if key in a else None,
                getattr(b, key) if key in b else None,
            )
            if result:
                return -result if direction == "desc" else result
        return 0

    return functools.cmp_to_key(compare)


def normalize_sort(
    sort_keys: Sequence[str] | None, sort_dirs: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """Keys and directions made a total order across cells: ``uuid`` last
    (ids repeat between cells, uuids do not)."""
    keys = list(sort_keys or ["created_at"])
    dirs = list(sort_dirs or [])
    dirs += [dirs[-1] if dirs else "desc"] * (len(keys) - len(dirs))
    if "uuid" not in keys:
        keys.append("uuid")
        dirs.append(dirs[0])
    return keys, dirs


def _marker_values(context, marker: str, sort_keys: Sequence[str]):
    """The marker instance's cell and its sort key values."""
    try:
        mapping = objects.InstanceMapping.get_by_instance_uuid(context, marker)
    except exception.InstanceMappingNotFound as exc:
        raise exception.MarkerNotFound(marker=marker) from exc
    if mapping.cell_mapping is None or (
        not context.is_admin and mapping.project_id != context.project_id
    ):
        raise exception.MarkerNotFound(marker=marker)
    with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
        cctxt.read_deleted = "yes"
        try:
            instance = objects.Instance.get_by_uuid(cctxt, marker, expected_attrs=[])
        except exception.InstanceNotFound as exc:
            raise exception.MarkerNotFound(marker=marker) from exc
    values = {
        key: obj_base.db_value(getattr(instance, key) if key in instance else None)
        for key in sort_keys
    }
    return mapping.cell_mapping.uuid, values


def _local_marker(cctxt, values, sort_keys, sort_dirs) -> str | None:
    """This cell's last instance sorting before ``values``, if any."""
    return objects.InstanceList.get_uuid_by_sort_filters(
        cctxt, sort_keys, [_REVERSED[d] for d in sort_dirs], values
    )


def get_instances_sorted(
    context,
    filters: dict[str, Any],
    limit: int | None,
    marker: str | None,
    expected_attrs: Sequence[str],
    sort_keys: Sequence[str] | None,
    sort_dirs: Sequence[str] | None,
    cell_down_support: bool = False,
) -> list:
    """One page of instances from all cells, in the requested order.

    ``cell_down_support`` (2.69+): a cell that cannot be reached adds
    minimal records of its instances (:func:`minimal_instance`) instead of
    being left out or failing the listing.

    :raises MarkerNotFound: no instance the caller may see has that uuid.
    """
    keys, dirs = normalize_sort(sort_keys, sort_dirs)
    marker_cell = marker_values = None
    if marker is not None:
        marker_cell, marker_values = _marker_values(context, marker, keys)

    def list_cell(cctxt):
        cell_marker = None
        if marker is not None:
            cell_marker = (
                marker
                if cctxt.cell_uuid == marker_cell
                else _local_marker(cctxt, marker_values, keys, dirs)
            )
        return objects.InstanceList.get_by_filters(
            cctxt,
            dict(filters),
            limit=limit,
            marker=cell_marker,
            expected_attrs=list(expected_attrs),
            sort_keys=keys,
            sort_dirs=dirs,
        )

    pages, unreachable = [], []
    for cell, result in scatter_gather.scatter_gather_all_cells(context, list_cell):
        if isinstance(result, BaseException):
            if isinstance(result, exception.MarkerNotFound):
                raise result
            if cell_down_support:
                LOG.warning("Cell %s is down, listing its servers as UNKNOWN: %s",
                            cell.uuid, result)  # fmt: skip
                unreachable.append(cell)
                continue
            if not CONF.api.list_records_by_skipping_down_cells:
                raise result
            LOG.warning("Leaving out cell %s from a server list: %s", cell.uuid, result)
            continue
        pages.append(list(result))
    merged = heapq.merge(*pages, key=_sort_key(keys, dirs))
    # Only the first page carries a down cell's servers: without their sort
    # values they have no place among the others.
    if marker is None:
        merged = itertools.chain(
            merged,
            *(
                down_cell_instances(context, cell, filters.get("project_id"))
                for cell in unreachable
            ),
        )
    if limit is None:
        return list(merged)
    return [instance for _, instance in zip(range(limit), merged, strict=False)]


def minimal_instance(context, mapping):
    """What is known of an instance whose cell cannot be reached: the
    instance mapping's uuid, owner and creation time.

    Views recognise such a record by its missing ``display_name`` and show
    it with status UNKNOWN (microversion 2.69).
    """
    return objects.Instance(
        context,
        uuid=mapping.instance_uuid,
        project_id=mapping.project_id,
        user_id=mapping.user_id,
        created_at=mapping.created_at,
    )


def down_cell_instances(context, cell, project_id: str | None) -> list:
    """Minimal records of the live instances mapped to an unreachable cell."""
    mappings = objects.InstanceMappingList.get_live_in_cell(
        context, cell.id, project_id
    )
    return [minimal_instance(context, mapping) for mapping in mappings]
