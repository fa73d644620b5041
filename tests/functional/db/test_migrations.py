"""The migrations build exactly the schema the models describe, everywhere."""

import contextlib

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from nova.db import engines, migration
from nova.db.api import models as api_models
from nova.db.main import models as main_models

MODELS = {"api": api_models, "main": main_models}
# A column of each schema the comparison is shown to notice a change in.
PROBE_COLUMN = {"api": ("key_pairs", "name"), "main": ("services", "host")}


@pytest.fixture(params=["api", "main"])
def database(request) -> str:
    return request.param


def schema_differences(url: str, metadata: sa.MetaData) -> list:
    with engines.get_engine(url).connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, metadata)


@contextlib.contextmanager
def recorded_statements(url: str):
    statements: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)

    engine = engines.get_engine(url)
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def test_upgrade_from_empty_to_head(make_db_url, database):
    url = make_db_url(database)
    assert migration.db_version(database, url) is None

    migration.db_sync(database, url)

    assert migration.db_version(database, url) == migration.head(database)
    tables = set(sa.inspect(engines.get_engine(url)).get_table_names())
    assert tables == set(MODELS[database].BASE.metadata.tables) | {"alembic_version"}


def test_migrated_schema_matches_models(migrated_db_urls, database):
    url = migrated_db_urls[database]
    metadata = MODELS[database].BASE.metadata

    assert schema_differences(url, metadata) == []

    # The comparison itself must see types, or the empty result proves little.
    altered = sa.MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(altered)
    table, column = PROBE_COLUMN[database]
    altered.tables[table].c[column].type = sa.String(100)
    assert [d[0][0] for d in schema_differences(url, altered)] == ["modify_type"]


def test_db_sync_of_a_migrated_database_is_a_noop(migrated_db_urls, database):
    url = migrated_db_urls[database]

    with recorded_statements(url) as statements:
        migration.db_sync(database, url)

    schema_changes = [
        s for s in statements if s.lstrip().upper().startswith(("CREATE", "ALTER"))
    ]
    assert schema_changes == []
    assert migration.db_version(database, url) == migration.head(database)
