"""Shadow tables: where ``nova-manage db archive_deleted_rows`` keeps rows.

Every soft-deleted table ``t`` (one with a ``deleted`` column) has a twin
``shadow_t`` with the same columns, as upstream Nova has. A shadow table
holds history, not live data: it keeps the primary key (archived rows keep
their ids) but no foreign key, unique constraint, index or default, so rows
can be moved into it in any order and none is ever refused.
"""

from __future__ import annotations

import sqlalchemy as sa

PREFIX = "shadow_"


def shadow_name(table_name: str) -> str:
    return PREFIX + table_name


def is_shadow(table_name: str) -> bool:
    return table_name.startswith(PREFIX)


def archivable(metadata: sa.MetaData) -> list[sa.Table]:
    """The tables of ``metadata`` that soft delete, parents before children."""
    return [
        table
        for table in metadata.sorted_tables
        if "deleted" in table.c and not is_shadow(table.name)
    ]


def _shadow_type(column_type: sa.types.TypeEngine) -> sa.types.TypeEngine:
    # A PostgreSQL enum is a named type of its own; the shadow column needs
    # another name, or creating it would collide with the live table's.
    if isinstance(column_type, sa.Enum):
        return sa.Enum(*column_type.enums, name=shadow_name(column_type.name))
    return column_type


def add_shadow_tables(metadata: sa.MetaData) -> None:
    """Declare ``shadow_<table>`` in ``metadata`` for each soft-deleted table."""
    for table in archivable(metadata):
        columns = [
            sa.Column(
                column.name,
                _shadow_type(column.type),
                primary_key=column.primary_key,
                nullable=column.nullable,
                autoincrement=False,
            )
            for column in table.columns
        ]
        sa.Table(shadow_name(table.name), metadata, *columns, **table.kwargs)


def shadow_of(table: sa.Table) -> sa.Table:
    """The shadow table of ``table``, declared in the same metadata."""
    return table.metadata.tables[shadow_name(table.name)]
