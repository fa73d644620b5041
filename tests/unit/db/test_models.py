"""Schema-wide rules of the models, checked without a database."""

import pytest
import sqlalchemy as sa
from sqlalchemy import orm

from nova.db import types
from nova.db.api import models as api_models
from nova.db.main import models as main_models

# Unique keys that stay unique across deleted rows too, as upstream has them:
# a uuid is never reused.
UNIQUE_WITHOUT_DELETED = {
    ("instances", ("uuid",)),
    ("instance_info_caches", ("instance_uuid",)),
    ("block_device_mapping", ("uuid",)),
    ("services", ("uuid",)),
    ("compute_nodes", ("uuid",)),
    ("migrations", ("uuid",)),
    # Upstream's task_log key leaves ``deleted`` out: one audit per period.
    ("task_log", ("task_name", "host", "period_beginning", "period_ending")),
}


def unique_keys(table: sa.Table):
    for constraint in table.constraints:
        if isinstance(constraint, sa.UniqueConstraint):
            yield tuple(constraint.columns.keys())
    for index in table.indexes:
        if index.unique:
            yield tuple(index.columns.keys())


def test_mappers_configure():
    orm.configure_mappers()


def test_api_database_does_not_soft_delete():
    for table in api_models.BASE.metadata.tables.values():
        assert {"deleted", "deleted_at"}.isdisjoint(table.columns.keys()), table.name


@pytest.mark.parametrize(
    "table",
    [
        t
        for t in main_models.BASE.metadata.sorted_tables
        if "deleted" in t.columns.keys()
    ],
    ids=lambda t: t.name,
)
def test_unique_keys_of_soft_deleted_tables_include_deleted(table):
    for key in unique_keys(table):
        assert "deleted" in key or (table.name, key) in UNIQUE_WITHOUT_DELETED, key


def test_every_table_has_timestamps_except_tags():
    for metadata in (api_models.BASE.metadata, main_models.BASE.metadata):
        for table in metadata.tables.values():
            has_timestamps = {"created_at", "updated_at"} <= set(table.columns.keys())
            assert has_timestamps is (table.name != "tags"), table.name


def test_utcnow_is_naive():
    assert types.utcnow().tzinfo is None
