"""nova-manage api_db / db: schema upgrades of the API and cell databases."""

from __future__ import annotations

import pytest

from nova.cmd import manage
from nova.db import migration
from tests.functional.cmd.conftest import TRANSPORT_URL, Manage, sqlite_only


def _with_password(url: str, backend: str) -> str:
    """``url`` carrying a password the server ignores (trust / empty root)."""
    if backend == "mysql":
        return url  # root has no password; MariaDB would refuse a wrong one
    if backend == "postgresql":
        return url.replace("postgres@", "postgres:db-secret@")
    return url


def test_issue_acceptance_sequence(db_backend, make_db_url, tmp_path, capsys):
    api, cell0, cell1 = make_db_url("api"), make_db_url("cell0"), make_db_url("cell1")
    cell1 = _with_password(cell1, db_backend)
    conf = tmp_path / "nova.conf"
    conf.write_text(
        f"[api_database]\nconnection = {api}\n[database]\nconnection = {cell1}\n"
    )

    def nova_manage(*args):
        capsys.readouterr()
        code = manage.main(["nova-manage", "--config-file", str(conf), *args])
        return code, *capsys.readouterr()

    assert nova_manage("api_db", "sync")[0] == 0
    assert nova_manage("cell_v2", "map_cell0", "--database_connection", cell0)[0] == 0
    code, out, err = nova_manage(
        "cell_v2", "create_cell", "--name", "cell1", "--database_connection", cell1,
        "--transport-url", TRANSPORT_URL, "--verbose",
    )  # fmt: skip
    assert code == 0, err
    cell1_uuid = out.strip().splitlines()[-1]
    assert nova_manage("db", "sync")[0] == 0

    # db sync upgraded both cell databases (cell0 and the mapped cell1).
    head = migration.head("main")
    assert migration.db_version("main", cell0) == head
    assert migration.db_version("main", cell1) == head
    assert migration.db_version("api", api) == migration.head("api")

    code, out, err = nova_manage("cell_v2", "list_cells")
    assert (code, err) == (0, "")
    rows = {line.split("|")[1].strip(): line for line in out.splitlines()[3:-1]}
    assert set(rows) == {"cell0", "cell1"}
    assert "00000000-0000-0000-0000-000000000000" in rows["cell0"]
    assert "none:///" in rows["cell0"]
    assert cell1_uuid in rows["cell1"]
    assert "rabbit://nova:****@mq1:5672,nova:****@mq2:5672/cell1" in rows["cell1"]
    assert "mq-secret" not in out and "db-secret" not in out
    for header in ("Name", "UUID", "Transport URL", "Database Connection", "Disabled"):
        assert header in out.splitlines()[1]

    code, out, _ = nova_manage("cell_v2", "list_cells", "--verbose")
    assert code == 0 and "mq-secret" in out


def test_db_sync_upgrades_every_mapped_cell(nova_manage: Manage):
    nova_manage.setup_cells()
    result = nova_manage("db", "sync")
    assert (result.code, result.err) == (0, "")


def test_db_sync_without_cell0_warns_and_syncs_the_rest(nova_manage: Manage):
    result = nova_manage("db", "sync")
    assert result.code == 0
    assert "cell0 mapping not found" in result.err


def test_db_sync_fails_with_1_when_a_cell_database_is_unreachable(
    nova_manage: Manage,
):
    nova_manage.setup_cells()
    unreachable = "mysql+pymysql://nova:db-secret@127.0.0.1:1/nova_cell2"
    result = nova_manage(
        "cell_v2", "create_cell", "--name", "cell2", "--database_connection",
        unreachable, "--transport-url", "rabbit://nova:pw@mq3/",
    )  # fmt: skip
    assert result.code == 0
    result = nova_manage("db", "sync")
    assert result.code == 1
    assert len(result.err.splitlines()) == 1
    assert "cell2" in result.err and "db-secret" not in result.err
    assert "Traceback" not in result.err


def test_db_sync_local_cell_only_touches_database_connection(nova_manage: Manage):
    # The API database is unusable: --local_cell must not need it.
    nova_manage.write_conf(
        api_database={"connection": "mysql+pymysql://nova:pw@127.0.0.1:1/api"}
    )
    assert nova_manage("db", "sync", "--local_cell").code == 0
    assert nova_manage("db", "sync").code == 1


def test_versions_are_printed(nova_manage: Manage):
    result = nova_manage("api_db", "version")
    assert (result.code, result.out.strip()) == (0, migration.head("api"))
    result = nova_manage("db", "version")
    assert (result.code, result.out.strip()) == (0, migration.head("main"))


@sqlite_only
@pytest.mark.parametrize(
    "args",
    [
        ("api_db", "version"),
        ("api_db", "sync"),
        ("cell_v2", "list_cells"),
        ("cell_v2", "map_cell0", "--database_connection", "sqlite:////tmp/x"),
    ],
)
def test_unreachable_api_database_is_one_line_without_traceback(
    nova_manage: Manage, args
):
    nova_manage.write_conf(
        api_database={"connection": "mysql+pymysql://nova:db-secret@127.0.0.1:1/api"}
    )
    result = nova_manage(*args)
    assert result.code == 255
    assert len(result.err.splitlines()) == 1, result.err
    assert result.err.startswith("ERROR: ")
    assert "db-secret" not in result.err and "Traceback" not in result.err


@sqlite_only
def test_missing_api_database_option_is_reported(nova_manage: Manage):
    nova_manage.write_conf(api_database={"connection": ""})
    result = nova_manage("cell_v2", "list_cells")
    assert result.code == 255
    assert (
        result.err
        == "ERROR: [api_database] connection is not set in the configuration\n"
    )


@sqlite_only
def test_debug_log_file_never_shows_passwords(nova_manage: Manage, tmp_path):
    log_file = tmp_path / "nova-manage.log"
    nova_manage.setup_cells()
    nova_manage.write_conf(
        api_database={"connection": "mysql+pymysql://nova:db-secret@127.0.0.1:1/api"}
    )
    result = nova_manage(
        "--debug", "--log-file", str(log_file), "cell_v2", "list_cells"
    )
    assert result.code == 255
    assert log_file.exists()
    text = log_file.read_text()
    assert "list_cells failed" in text
    assert "db-secret" not in text and "mq-secret" not in text


@sqlite_only
def test_config_dir_is_read(nova_manage: Manage, tmp_path, capsys):
    nova_manage.setup_cells()
    conf_dir = tmp_path / "nova.conf.d"
    conf_dir.mkdir()
    (conf_dir / "10-api.conf").write_text(nova_manage.conf_path.read_text())
    capsys.readouterr()
    code = manage.main(
        ["nova-manage", "--config-dir", str(conf_dir), "cell_v2", "list_cells"]
    )
    assert code == 0
    assert "cell1" in capsys.readouterr().out
