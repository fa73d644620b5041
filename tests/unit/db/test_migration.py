"""db_sync/db_version plumbing that needs no database server."""

import sys

import pytest
from alembic.script import ScriptDirectory

from nova import exception
from nova.db import engines, migration


@pytest.mark.parametrize("database", migration.DATABASES)
def test_each_environment_has_one_linear_history(database):
    config = migration._config(database)
    scripts = ScriptDirectory.from_config(config)
    assert scripts.get_heads() == [migration.head(database)]
    assert len(scripts.get_bases()) == 1


def test_unknown_database_is_rejected():
    with pytest.raises(ValueError, match="'cell1'"):
        migration.alembic_directory("cell1")


def test_installed_environment_is_found_under_sys_prefix(tmp_path, monkeypatch):
    installed = tmp_path / "share" / "nova" / "alembic" / "main"
    installed.mkdir(parents=True)
    (installed / "env.py").write_text("")
    # As if nova were installed in site-packages, without the source tree.
    site_packages = tmp_path / "lib" / "site-packages" / "nova" / "db"
    monkeypatch.setattr(migration, "__file__", str(site_packages / "migration.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path))

    assert migration.alembic_directory("main") == installed


def test_missing_environment_names_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setattr(migration, "__file__", str(tmp_path / "a/b/migration.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="share/nova/alembic/api"):
        migration.alembic_directory("api")


@pytest.fixture
def unreachable_mysql():
    # Port 1 refuses at once: no server, no waiting for a timeout.
    url = "mysql+pymysql://nova:s3cr3t@127.0.0.1:1/nova_api"
    yield url
    engines.dispose(url)


@pytest.mark.parametrize("call", [migration.db_sync, migration.db_version])
def test_unreachable_database_is_reported_without_password(unreachable_mysql, call):
    with pytest.raises(migration.DatabaseUnreachable) as raised:
        call("api", unreachable_mysql)

    message = str(raised.value)
    assert "s3cr3t" not in message
    assert "\n" not in message
    assert message.startswith(
        "Cannot connect to the api database at "
        "mysql+pymysql://nova:****@127.0.0.1:1/nova_api: "
    )


def test_sqlite_file_in_missing_directory_is_unreachable(tmp_path):
    url = f"sqlite:///{tmp_path}/missing/nova.sqlite"
    try:
        with pytest.raises(migration.DatabaseUnreachable, match="unable to open"):
            migration.db_sync("main", url)
    finally:
        engines.dispose(url)


def test_malformed_connection_is_invalid():
    with pytest.raises(exception.InvalidDatabaseConnection) as raised:
        migration.db_version("main", "nosuchdialect://nova:s3cr3t@db/nova")
    assert "nosuchdialect://nova:****@db/nova" in str(raised.value)
