"""The [database] and [api_database] pool options reach the engines of
server databases, each URL with its own group's; SQLite ignores them."""

import pytest

from nova.conf import CONF
from nova.db import engines

API_URL = "mysql+pymysql://nova:pw@192.0.2.1/nova_api"
CELL_URL = "postgresql+psycopg2://nova:pw@192.0.2.1/nova_cell1"


@pytest.fixture
def pool_options():
    CONF.set_override("connection", API_URL, group="api_database")
    for group, size, overflow, timeout, recycle in (
        ("api_database", 7, 3, 11, 600),
        ("database", 2, 0, 5, 120),
    ):
        CONF.set_override("max_pool_size", size, group=group)
        CONF.set_override("max_overflow", overflow, group=group)
        CONF.set_override("pool_timeout", timeout, group=group)
        CONF.set_override("connection_recycle_time", recycle, group=group)
    yield
    for group in ("api_database", "database"):
        for name in (
            "connection",
            "max_pool_size",
            "max_overflow",
            "pool_timeout",
            "connection_recycle_time",
        ):
            CONF.clear_override(name, group=group)
    engines.dispose()


def _pool(url):
    pool = engines.get_engine(url).pool
    return pool.size(), pool._max_overflow, pool._timeout, pool._recycle


def test_the_api_database_gets_the_api_database_pool_options(pool_options):
    assert _pool(API_URL) == (7, 3, 11, 600)


def test_a_cell_database_gets_the_database_pool_options(pool_options):
    assert _pool(CELL_URL) == (2, 0, 5, 120)


def test_defaults_are_oslo_db_defaults():
    try:
        assert _pool("mysql+pymysql://nova:pw@192.0.2.1/nova_cell2") == (
            5,
            50,
            30,
            3600,
        )
    finally:
        engines.dispose()


def test_sqlite_files_ignore_pool_options(pool_options, tmp_path):
    url = f"sqlite:///{tmp_path / 'cell.db'}"
    pool = engines.get_engine(url).pool
    # SQLAlchemy's own settings for SQLite files, not [database]'s.
    assert (pool.size(), pool._max_overflow, pool._recycle) == (5, 10, -1)
