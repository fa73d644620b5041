"""nova-manage cell_v2: map_cell0, create/update/list/delete_cell, simple setup."""

from __future__ import annotations

import pytest

from nova.db.api import models as api_models
from tests.functional.cmd.conftest import (
    TRANSPORT_URL,
    Manage,
    add_compute_node,
    add_instance,
    node_mapped_flags,
    sqlite_only,
)

CELL0_UUID = "00000000-0000-0000-0000-000000000000"


def _cells(nova_manage: Manage) -> dict[str, api_models.CellMapping]:
    return {cell.name: cell for cell in nova_manage.api_rows(api_models.CellMapping)}


# map_cell0 -----------------------------------------------------------------


def test_map_cell0_is_idempotent(nova_manage: Manage):
    assert (
        nova_manage(
            "cell_v2", "map_cell0", "--database_connection", nova_manage.cell0
        ).code
        == 0
    )
    again = nova_manage("cell_v2", "map_cell0", "--database_connection", "sqlite:////x")
    assert again.code == 0
    assert "Cell0 is already setup" in again.out
    (cell0,) = nova_manage.api_rows(api_models.CellMapping)
    assert (cell0.uuid, cell0.name) == (CELL0_UUID, "cell0")
    assert (cell0.transport_url, cell0.database_connection) == (
        "none:///",
        nova_manage.cell0,
    )


def test_map_cell0_derives_its_url_from_database_connection(nova_manage: Manage):
    nova_manage.write_conf(
        database={"connection": "mysql+pymysql://nova:pw@db.example/nova?charset=utf8"}
    )
    assert nova_manage("cell_v2", "map_cell0").code == 0
    (cell0,) = nova_manage.api_rows(api_models.CellMapping)
    assert cell0.database_connection == (
        "mysql+pymysql://nova:pw@db.example/nova_cell0?charset=utf8"
    )


@sqlite_only
@pytest.mark.parametrize("url", ["not a url", "nosuchdialect://u:pw@h/db", "mysql://"])
def test_map_cell0_rejects_a_malformed_url(nova_manage: Manage, url):
    result = nova_manage("cell_v2", "map_cell0", "--database_connection", url)
    assert result.code == 1
    assert result.err.startswith("ERROR: ") and len(result.err.splitlines()) == 1
    assert nova_manage.api_rows(api_models.CellMapping) == []


# create_cell ---------------------------------------------------------------


def test_create_cell_defaults_from_configuration(nova_manage: Manage):
    result = nova_manage("cell_v2", "create_cell", "--name", "cell1", "--disabled")
    assert result.code == 0
    assert result.out.count("from the configuration file") == 2
    cell = _cells(nova_manage)["cell1"]
    assert (cell.transport_url, cell.database_connection) == (
        TRANSPORT_URL,
        nova_manage.cell1,
    )
    assert cell.disabled is True
    assert "mq-secret" not in result.out


def test_create_cell_refuses_a_second_cell_on_the_same_urls(nova_manage: Manage):
    nova_manage.setup_cells()
    result = nova_manage(
        "cell_v2", "create_cell", "--name", "again", "--transport-url", "rabbit://x@y/",
        "--database_connection", nova_manage.cell1,
    )  # fmt: skip
    assert result.code == 2
    assert len(result.err.splitlines()) == 1
    assert set(_cells(nova_manage)) == {"cell0", "cell1"}


@sqlite_only
@pytest.mark.parametrize(
    "option, value",
    [
        ("--transport-url", "no-scheme-here"),
        ("--transport-url", "rabbit://user:pw@host:notaport/"),
        ("--database_connection", "nosuchdialect://u:db-secret@h/db"),
        ("--database_connection", "::garbage::"),
    ],
)
def test_create_cell_rejects_malformed_urls_and_writes_nothing(
    nova_manage: Manage, option, value
):
    args = {
        "--transport-url": TRANSPORT_URL,
        "--database_connection": nova_manage.cell1,
    }
    args[option] = value
    result = nova_manage(
        "cell_v2",
        "create_cell",
        "--name",
        "bad",
        *(x for kv in args.items() for x in kv),
    )
    assert result.code == 1
    assert result.err.startswith("ERROR: ") and len(result.err.splitlines()) == 1
    assert "db-secret" not in result.err and "Traceback" not in result.err
    assert nova_manage.api_rows(api_models.CellMapping) == []


@sqlite_only
def test_create_cell_without_any_transport_url_fails(nova_manage: Manage):
    nova_manage.write_conf(DEFAULT={"transport_url": ""})
    result = nova_manage("cell_v2", "create_cell", "--name", "cell1")
    assert result.code == 1
    assert "--transport-url" in result.err


# update_cell ---------------------------------------------------------------


def test_update_cell_changes_name_urls_and_state(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    result = nova_manage(
        "cell_v2", "update_cell", "--cell_uuid", cell1, "--name", "renamed",
        "--transport-url", "rabbit://n:p@mq9/", "--disable",
    )  # fmt: skip
    assert result.code == 0, result.err
    cell = _cells(nova_manage)["renamed"]
    assert (cell.transport_url, cell.disabled) == ("rabbit://n:p@mq9/", True)
    # Not given on the command line: taken from [database] connection.
    assert cell.database_connection == nova_manage.cell1

    again = nova_manage("cell_v2", "update_cell", "--cell_uuid", cell1, "--disable")
    assert again.code == 0 and "already disabled" in again.out
    assert (
        nova_manage("cell_v2", "update_cell", "--cell_uuid", cell1, "--enable").code
        == 0
    )
    assert _cells(nova_manage)["renamed"].disabled is False


def test_update_cell_never_gives_cell0_the_configured_urls(nova_manage: Manage):
    nova_manage.setup_cells()
    result = nova_manage(
        "cell_v2", "update_cell", "--cell_uuid", CELL0_UUID, "--name", "c0"
    )
    assert result.code == 0, result.err
    cell0 = _cells(nova_manage)["c0"]
    assert (cell0.transport_url, cell0.database_connection) == (
        "none:///",
        nova_manage.cell0,
    )


@pytest.mark.parametrize(
    "args, code",
    [
        (("--cell_uuid", "5e7c1b3e-0000-4000-8000-000000000000"), 1),
        (("--transport-url", "no-scheme"), 2),
        (("--database_connection", "nosuchdialect://x/y"), 2),
        (("--database_connection", "CELL0"), 3),
        (("--disable", "--enable"), 4),
        (("--cell_uuid", CELL0_UUID, "--disable"), 5),
    ],
)
def test_update_cell_refusals(nova_manage: Manage, args, code):
    cell1 = nova_manage.setup_cells()
    args = tuple(nova_manage.cell0 if a == "CELL0" else a for a in args)
    if "--cell_uuid" not in args:
        args = ("--cell_uuid", cell1, *args)
    before = [(c.name, c.transport_url, c.database_connection, c.disabled)
              for c in nova_manage.api_rows(api_models.CellMapping)]  # fmt: skip
    result = nova_manage("cell_v2", "update_cell", *args)
    assert result.code == code
    assert result.err.startswith("ERROR: ") and len(result.err.splitlines()) == 1
    after = [(c.name, c.transport_url, c.database_connection, c.disabled)
             for c in nova_manage.api_rows(api_models.CellMapping)]  # fmt: skip
    assert after == before


# list_cells ----------------------------------------------------------------


def test_list_cells_of_an_empty_deployment(nova_manage: Manage):
    result = nova_manage("cell_v2", "list_cells")
    assert result.code == 0
    assert "Name" in result.out and "00000000" not in result.out


# delete_cell ---------------------------------------------------------------


def test_delete_empty_cell(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    assert nova_manage("cell_v2", "delete_cell", "--cell_uuid", cell1).code == 0
    assert set(_cells(nova_manage)) == {"cell0"}


def test_delete_unknown_cell(nova_manage: Manage):
    result = nova_manage("cell_v2", "delete_cell", "--cell_uuid", "no-such-cell")
    assert result.code == 1
    assert "no-such-cell" in result.err


def test_delete_cell_with_hosts_needs_force(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    add_compute_node(nova_manage.cell1, "compute1")
    assert nova_manage("cell_v2", "discover_hosts").code == 0

    refused = nova_manage("cell_v2", "delete_cell", "--cell_uuid", cell1)
    assert refused.code == 2
    assert "cell1" in _cells(nova_manage)
    assert len(nova_manage.api_rows(api_models.HostMapping)) == 1

    forced = nova_manage("cell_v2", "delete_cell", "--cell_uuid", cell1, "--force")
    assert forced.code == 0
    assert set(_cells(nova_manage)) == {"cell0"}
    assert nova_manage.api_rows(api_models.HostMapping) == []
    # The node can be discovered again should its host join another cell.
    assert node_mapped_flags(nova_manage.cell1) == {"compute1": 0}


def test_delete_cell_with_live_instances_is_refused_even_with_force(
    nova_manage: Manage,
):
    cell1 = nova_manage.setup_cells()
    add_instance(nova_manage.cell1)
    assert nova_manage("cell_v2", "map_instances", "--cell_uuid", cell1).code == 0
    result = nova_manage("cell_v2", "delete_cell", "--cell_uuid", cell1, "--force")
    assert result.code == 3
    assert "cell1" in _cells(nova_manage)


def test_delete_cell_with_only_deleted_instances(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    add_instance(nova_manage.cell1, deleted=True)
    assert nova_manage("cell_v2", "map_instances", "--cell_uuid", cell1).code == 0

    assert nova_manage("cell_v2", "delete_cell", "--cell_uuid", cell1).code == 4
    assert len(nova_manage.api_rows(api_models.InstanceMapping)) == 1

    assert (
        nova_manage("cell_v2", "delete_cell", "--cell_uuid", cell1, "--force").code == 0
    )
    assert nova_manage.api_rows(api_models.InstanceMapping) == []
    assert set(_cells(nova_manage)) == {"cell0"}


# simple_cell_setup ---------------------------------------------------------


def test_simple_cell_setup(nova_manage: Manage):
    nova_manage.write_conf(database={"connection": nova_manage.cell1})
    # cell0's database is derived from [database] connection; only SQLite
    # can create one on the fly, so point cell0 at the migrated one first.
    nova_manage("cell_v2", "map_cell0", "--database_connection", nova_manage.cell0)
    no_hosts = nova_manage("cell_v2", "simple_cell_setup")
    assert no_hosts.code == 1
    assert "No hosts found" in no_hosts.out

    add_compute_node(nova_manage.cell1, "compute1")
    instance = add_instance(nova_manage.cell1, host="compute1")
    result = nova_manage("cell_v2", "simple_cell_setup")
    assert result.code == 0, result.err
    cells = _cells(nova_manage)
    assert set(cells) == {"cell0", None}
    assert cells[None].database_connection == nova_manage.cell1
    assert cells[None].transport_url == TRANSPORT_URL
    (host,) = nova_manage.api_rows(api_models.HostMapping)
    assert host.host == "compute1"
    verified = nova_manage("cell_v2", "verify_instance", "--uuid", instance)
    assert verified.code == 0

    # Running it again changes nothing.
    assert nova_manage("cell_v2", "simple_cell_setup").code == 0
    assert len(nova_manage.api_rows(api_models.CellMapping)) == 2


@sqlite_only
def test_simple_cell_setup_needs_a_transport_url(nova_manage: Manage):
    nova_manage.write_conf(DEFAULT={"transport_url": ""})
    assert nova_manage("cell_v2", "simple_cell_setup").code == 1
    assert nova_manage.api_rows(api_models.CellMapping) == []
