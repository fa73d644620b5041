"""nova-manage's command line: parsing, usage errors, URL validation.

Nothing here reaches a database; the commands' behaviour against real ones
is in tests/functional/cmd.
"""

import pytest

from nova import exception
from nova.cmd import manage, manage_cell_v2
from nova.conf import CONF


@pytest.fixture
def conf_file(tmp_path):
    path = tmp_path / "nova.conf"
    path.write_text("[api_database]\nconnection = sqlite:////nonexistent/dir/api\n")
    return str(path)


def _main(conf_file, *args):
    return manage.main(["nova-manage", "--config-file", conf_file, *args])


def test_without_a_category_prints_usage(conf_file, capsys):
    assert _main(conf_file) == 2
    assert "cell_v2" in capsys.readouterr().err


def test_without_an_action_lists_the_actions(conf_file, capsys):
    assert _main(conf_file, "cell_v2") == 2
    out = capsys.readouterr().out
    for action in ("create_cell", "discover_hosts", "map_cell0", "verify_instance"):
        assert action in out


def test_missing_required_argument_is_a_usage_error(conf_file, capsys):
    assert _main(conf_file, "cell_v2", "verify_instance") == 2
    assert "--uuid" in capsys.readouterr().err


def test_unknown_configuration_file(tmp_path, capsys):
    assert _main(str(tmp_path / "missing.conf"), "api_db", "version") == 255
    err = capsys.readouterr().err
    assert err.startswith("ERROR: ") and len(err.splitlines()) == 1


def test_arguments_reach_the_action(conf_file, monkeypatch):
    seen = {}

    def fake_map_instances(self, cell_uuid, max_count=None, reset_marker=False):
        seen.update(cell_uuid=cell_uuid, max_count=max_count, reset=reset_marker)
        return 1

    fake_map_instances.manage_args = (
        manage_cell_v2.CellV2Commands.map_instances.manage_args
    )
    monkeypatch.setattr(
        manage_cell_v2.CellV2Commands, "map_instances", fake_map_instances
    )
    argv = ["cell_v2", "map_instances", "--cell_uuid", "c1", "--max-count", "5"]
    assert _main(conf_file, *argv, "--reset") == 1
    assert seen == {"cell_uuid": "c1", "max_count": "5", "reset": True}


def test_unexpected_failure_is_one_line_and_255(conf_file, monkeypatch, capsys):
    def broken(self, verbose=False):
        raise RuntimeError("boom\nsecond line with mysql://u:s3cret@h/db")

    monkeypatch.setattr(manage_cell_v2.CellV2Commands, "list_cells", broken)
    assert _main(conf_file, "cell_v2", "list_cells") == 255
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert "RuntimeError: boom" in err and "s3cret" not in err


def test_configuration_is_released_after_each_run(conf_file):
    _main(conf_file, "cell_v2")
    # A second, different command line parses cleanly in the same process.
    assert _main(conf_file, "cell_v2", "verify_instance") == 2
    assert "category" not in CONF


@pytest.mark.parametrize(
    "url",
    [
        "rabbit://nova:pw@mq:5672/",
        "rabbit://a:b@h1:5672,c:d@h2:5672/vhost",
        "none:///",
    ],
)
def test_valid_transport_urls(url):
    manage_cell_v2.validate_transport_url(url)


@pytest.mark.parametrize("url", ["mq-host", "rabbit://u:secret@h:port/"])
def test_invalid_transport_urls_hide_the_password(url):
    with pytest.raises(exception.InvalidTransportURL) as caught:
        manage_cell_v2.validate_transport_url(url)
    assert "secret" not in caught.value.format_message()


@pytest.mark.parametrize(
    "url",
    ["sqlite:////var/lib/nova/nova.sqlite", "mysql+pymysql://u:p@db/nova_cell1"],
)
def test_valid_database_connections(url):
    manage_cell_v2.validate_database_connection(url)


@pytest.mark.parametrize(
    "url", ["nova_cell1", "oracle+nosuchdriver://u:p@h/db", "postgresql://h"]
)
def test_invalid_database_connections(url):
    with pytest.raises(exception.InvalidDatabaseConnection):
        manage_cell_v2.validate_database_connection(url)


@pytest.mark.parametrize(
    "connection, cell0",
    [
        ("mysql+pymysql://nova:p%40ss@db/nova?charset=utf8",
         "mysql+pymysql://nova:p%40ss@db/nova_cell0?charset=utf8"),
        ("sqlite:////var/lib/nova/nova.sqlite",
         "sqlite:////var/lib/nova/nova_cell0.sqlite"),
        ("sqlite:///state/nova", "sqlite:///state/nova_cell0"),
    ],
)  # fmt: skip
def test_cell0_connection_is_derived_from_database_connection(connection, cell0):
    CONF.set_override("connection", connection, group="database")
    try:
        assert manage_cell_v2.cell0_default_connection() == cell0
    finally:
        CONF.clear_override("connection", group="database")
