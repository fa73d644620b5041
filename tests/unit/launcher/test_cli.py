import pytest

from nova.launcher import cli
from nova.launcher.settings import DeploymentSettings


def test_parser_accepts_the_documented_commands():
    parser = cli.build_parser()
    args = parser.parse_args(
        ["start", "--state-dir", "/x", "--db", "sqlite", "--computes", "3"]
    )
    assert (args.command, args.db, args.computes) == ("start", "sqlite", 3)
    assert parser.parse_args(["stop"]).command == "stop"
    assert parser.parse_args(["status", "--state-dir", "/y"]).command == "status"
    with pytest.raises(SystemExit):
        parser.parse_args(["start", "--db", "oracle"])


def test_default_state_dir_honours_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("NOVA_LOCAL_CLOUD_STATE", str(tmp_path / "explicit"))
    assert cli.default_state_dir() == tmp_path / "explicit"
    monkeypatch.delenv("NOVA_LOCAL_CLOUD_STATE")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert cli.default_state_dir() == tmp_path / "xdg" / "nova-local-cloud"


def test_status_and_stop_without_a_deployment_fail(tmp_path, capsys):
    assert cli.main(["status", "--state-dir", str(tmp_path)]) == 1
    assert "no deployment" in capsys.readouterr().err
    assert cli.main(["stop", "--state-dir", str(tmp_path)]) == 1


def test_status_of_a_stopped_deployment_exits_3(tmp_path, capsys):
    DeploymentSettings(name="st", db="sqlite").save(tmp_path / "deployment.json")
    assert cli.main(["status", "--state-dir", str(tmp_path)]) == 3
    out = capsys.readouterr().out
    assert "deployment 'st'" in out
    assert "keystone" in out and "stopped" in out


def test_start_refuses_options_contradicting_the_saved_deployment(tmp_path, capsys):
    DeploymentSettings(name="st", db="sqlite").save(tmp_path / "deployment.json")
    code = cli.main(["start", "--state-dir", str(tmp_path), "--db", "mysql"])
    assert code == 1
    assert "created with other db" in capsys.readouterr().err


def test_start_reports_taken_ports_before_touching_anything(tmp_path, capsys):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        offset = port - 5000
        state = tmp_path / "new"
        code = cli.main(
            ["start", "--state-dir", str(state), "--db", "sqlite"]
            + ["--port-offset", str(offset)]
        )
    assert code == 1
    assert f"{port} (keystone)" in capsys.readouterr().err
    assert not state.exists()
