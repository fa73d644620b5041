"""Archiving soft-deleted rows of a cell database, and purging the archive.

``archive_deleted_rows`` moves rows whose ``deleted`` is not 0 into their
shadow tables (``nova.db.shadow``); rows of other tables that point at a
moved row through a foreign key (an archived instance's extra, info cache,
faults, actions and their events, metadata, block device mappings, ...) go
with it, whatever their own ``deleted`` says, so no foreign key is left
dangling. Each batch is one transaction: a row is in its table or in its
shadow table, never in both or in neither.

``purge_shadow_tables`` deletes archived rows for good.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections import Counter

import sqlalchemy as sa
from oslo_log import log as logging
from sqlalchemy import orm

from nova.db import engines, shadow
from nova.db.main import models

LOG = logging.getLogger(__name__)

TASK_LOG = "task_log"
IDS_PER_STATEMENT = 500


@dataclasses.dataclass
class ArchiveResult:
    """What one batch moved: rows per table, and the archived instances."""

    rows: Counter = dataclasses.field(default_factory=Counter)
    instance_uuids: list[str] = dataclasses.field(default_factory=list)


def _tables() -> list[sa.Table]:
    return shadow.archivable(models.BASE.metadata)


def _references(child: sa.Table, parent: sa.Table) -> list[tuple[sa.Column, str]]:
    """(child column, parent column name) of each foreign key child → parent."""
    return [
        (fk.parent, fk.column.name)
        for fk in child.foreign_keys
        if fk.column.table is parent
    ]


def _as_shadow_columns(session: orm.Session, table: sa.Table, target: sa.Table):
    """The columns of ``table`` as ``target`` takes them.

    PostgreSQL gives a shadow table's enum columns a type of their own and
    converts between two enum types only through text.
    """
    if session.get_bind().dialect.name != "postgresql":
        return list(table.columns)
    return [
        sa.cast(sa.cast(column, sa.Text), target.c[column.name].type)
        if isinstance(column.type, sa.Enum)
        else column
        for column in table.columns
    ]


def _move(session: orm.Session, table: sa.Table, ids: list, result: ArchiveResult):
    """Move the rows of ``table`` with these ids, and their dependants."""
    # In slices: an instance can have dozens of dependants, and SQLite takes
    # a limited number of bound parameters in one statement.
    for start in range(0, len(ids), IDS_PER_STATEMENT):
        _move_slice(session, table, ids[start : start + IDS_PER_STATEMENT], result)


def _move_slice(
    session: orm.Session, table: sa.Table, ids: list, result: ArchiveResult
) -> None:
    for child in _tables():
        for column, parent_column in _references(child, table):
            keys = sa.select(table.c[parent_column]).where(table.c.id.in_(ids))
            child_ids = list(
                session.scalars(sa.select(child.c.id).where(column.in_(keys)))
            )
            _move(session, child, child_ids, result)
    if table.name == "instances":
        result.instance_uuids.extend(
            session.scalars(sa.select(table.c.uuid).where(table.c.id.in_(ids)))
        )
    target = shadow.shadow_of(table)
    # SQLite gives the id of a table's last row to the next row once the
    # last is gone (archived): an older archived row may hold the same id.
    reused = session.execute(sa.delete(target).where(target.c.id.in_(ids))).rowcount
    if reused:
        LOG.warning(
            "%d archived rows of %s had ids now reused; replaced by the newer rows",
            reused,
            table.name,
        )
    names = [column.name for column in table.columns]
    values = sa.select(*_as_shadow_columns(session, table, target)).where(
        table.c.id.in_(ids)
    )
    session.execute(target.insert().from_select(names, values))
    session.execute(sa.delete(table).where(table.c.id.in_(ids)))
    result.rows[table.name] += len(ids)


def _archivable_ids(
    session: orm.Session,
    table: sa.Table,
    limit: int,
    before: datetime.datetime | None,
    task_log: bool,
) -> list:
    stmt = sa.select(table.c.id).order_by(table.c.id).limit(limit)
    if table.name == TASK_LOG and task_log:
        # Nothing ever deletes task_log rows: all of them are history.
        if before is not None:
            stmt = stmt.where(
                sa.func.coalesce(table.c.updated_at, table.c.created_at) < before
            )
        return list(session.scalars(stmt))
    stmt = stmt.where(table.c.deleted != 0)
    if before is not None:
        stmt = stmt.where(table.c.deleted_at < before)
    return list(session.scalars(stmt))


def archive_deleted_rows(
    connection: str,
    max_rows: int,
    before: datetime.datetime | None = None,
    task_log: bool = False,
) -> ArchiveResult:
    """Move up to ``max_rows`` deleted rows (plus their dependants) of the
    cell database at ``connection`` into the shadow tables.

    :param before: only rows deleted before this time (naive UTC).
    :param task_log: also archive ``task_log`` rows (updated before
        ``before``, when given), which are never soft deleted.
    """
    result = ArchiveResult()
    with engines.transaction(connection) as session:
        # Children first: a deleted row whose parent is live goes on its own.
        for table in reversed(_tables()):
            remaining = max_rows - sum(result.rows.values())
            if remaining <= 0:
                break
            ids = _archivable_ids(session, table, remaining, before, task_log)
            _move(session, table, ids, result)
    return result


def _archived_at(table: sa.Table) -> sa.ColumnElement:
    # Rows that went with an archived parent may never have been deleted
    # themselves; their last change dates them.
    return sa.func.coalesce(table.c.deleted_at, table.c.updated_at, table.c.created_at)


def purge_shadow_tables(
    connection: str, before: datetime.datetime | None = None
) -> Counter:
    """Delete archived rows (those archived from rows dated before
    ``before``, or all); the number deleted per shadow table."""
    purged: Counter = Counter()
    with engines.transaction(connection) as session:
        for table in reversed(_tables()):
            target = shadow.shadow_of(table)
            stmt = sa.delete(target)
            if before is not None:
                stmt = stmt.where(_archived_at(target) < before)
            count = session.execute(stmt).rowcount
            if count:
                purged[target.name] = count
    return purged
