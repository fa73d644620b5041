"""Migrated API and cell databases on every backend."""

import pytest

from nova.db import migration
from tests.fixtures import databases


@pytest.fixture(
    scope="module",
    params=[
        pytest.param("sqlite"),
        pytest.param("mysql", marks=pytest.mark.mysql),
        pytest.param("postgresql", marks=pytest.mark.postgresql),
    ],
)
def migrated_db_urls(request, tmp_path_factory) -> dict[str, str]:
    """An API ("api") and a cell ("main") database upgraded to the newest
    revision, shared by the tests of a module on one backend: tests must not
    depend on what other tests wrote."""
    reason = databases.backend_unavailable_reason(request.param)
    if reason:
        databases.skip_or_fail(reason)
    throwaway = databases.ThrowawayDatabases(
        request.param, tmp_path_factory.mktemp(request.param)
    )
    try:
        urls = {"api": throwaway.create("api"), "main": throwaway.create("cell")}
        for database, url in urls.items():
            migration.db_sync(database, url)
        yield urls
    finally:
        throwaway.drop_all()


@pytest.fixture
def api_db_url(migrated_db_urls) -> str:
    return migrated_db_urls["api"]


@pytest.fixture
def cell_db_url(migrated_db_urls) -> str:
    return migrated_db_urls["main"]
