"""Column types and column sets shared by the API and the cell schemas.

Every type here renders to the same DDL that the migrations create and that a
reflected database reports back, on SQLite, MySQL/MariaDB and PostgreSQL, so an
autogenerate comparison between models and a migrated database stays empty.
"""

from __future__ import annotations

import datetime

import sqlalchemy as sa
from sqlalchemy import orm
from sqlalchemy.dialects import mysql, postgresql

# Large JSON blobs (flavors, NUMA topologies, network info, user data) outgrow
# MySQL's 64 KiB TEXT; other backends have no such limit.
MediumText = sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql")

# Long enough for the textual form of any IPv6 address; PostgreSQL has a
# native type for it, as upstream uses.
IPAddress = sa.String(39).with_variant(postgresql.INET(), "postgresql")


def utcnow() -> datetime.datetime:
    """The current time in UTC, naive, as every DateTime column stores it."""
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


class TimestampMixin:
    """created_at/updated_at, maintained by the ORM as upstream's are."""

    created_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        sa.DateTime, default=utcnow, sort_order=-20
    )
    updated_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        sa.DateTime, onupdate=utcnow, sort_order=-20
    )


class SoftDeleteMixin:
    """Soft deletion as upstream does it.

    A live row has ``deleted = 0``; deleting a row sets ``deleted`` to the
    row's own id and ``deleted_at`` to the time. Unique constraints include
    ``deleted``, so any number of deleted rows may share the values of one
    live row.
    """

    deleted_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        sa.DateTime, sort_order=-20
    )
    deleted: orm.Mapped[int | None] = orm.mapped_column(sa.Integer, default=0)
