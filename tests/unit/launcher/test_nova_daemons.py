"""How our daemons plug in: declared specs become processes with the right
configuration files, started by role group and stopped in reverse."""

import json
import os
import stat
import sys

import pytest

from nova.launcher import daemons as declared
from nova.launcher import proc
from nova.launcher.daemons import (
    ConfigRole,
    NovaDaemon,
    NovaSetupCommand,
    NovaUrls,
)
from nova.launcher.nova_services import NovaServices
from nova.launcher.probes import AliveProbe, HttpProbe, LogLineProbe
from nova.launcher.settings import DeploymentSettings
from nova.launcher.state import StateDir
from nova.launcher.upstream import UpstreamServices

FAKE_DAEMON = """#!{python}
import json, os, sys, time
record = os.path.join(os.path.dirname(__file__), "started.jsonl")
with open(record, "a") as handle:
    handle.write(json.dumps(sys.argv[1:]) + "\\n")
time.sleep(60)
"""


class FakeVhosts:
    def __init__(self):
        self.vhosts: dict[str, str] = {}

    def ensure(self, vhost, user="guest"):
        self.vhosts[vhost] = user

    def delete(self, vhost):
        self.vhosts.pop(vhost, None)

    def list(self):
        return list(self.vhosts)


@pytest.fixture
def fake_daemon(tmp_path):
    script = tmp_path / "bin" / "fake-daemon"
    script.parent.mkdir()
    script.write_text(FAKE_DAEMON.format(python=sys.executable))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def _nova(tmp_path, daemons=(), commands=(), computes=2):
    state = StateDir(tmp_path / "state")
    state.create()
    settings = DeploymentSettings(name="unit", db="sqlite", computes=computes)
    upstream = UpstreamServices(state, settings)
    return NovaServices(
        state,
        settings,
        upstream,
        daemons=daemons,
        setup_commands=commands,
        vhosts=FakeVhosts(),
    )


def test_declared_deployment_follows_the_deployment_contract(tmp_path):
    nova = _nova(
        tmp_path,
        daemons=declared.NOVA_DAEMONS,
        commands=declared.NOVA_SETUP_COMMANDS,
    )
    specs = {spec.name: (role, spec) for role, spec in nova.specs()}
    novnc = ["nova-novncproxy"] if os.path.isdir(declared.NOVNC_WEB) else []
    assert list(specs) == [
        "nova-api",
        "nova-metadata-api",
        "nova-scheduler",
        "nova-conductor",
        "nova-cell1-conductor",
        *novnc,
        "nova-serialproxy",
        "nova-compute-1",
        "nova-compute-2",
    ]
    api, cell = str(nova.configs.api_conf), str(nova.configs.cell1_conf)

    def config_files(name):
        argv = specs[name][1].argv
        return [argv[i + 1] for i, arg in enumerate(argv) if arg == "--config-file"]

    # One nova-conductor binary: superconductor with the API-level file,
    # cell1's conductor with the cell file.
    assert specs["nova-conductor"][1].argv[0].endswith("/nova-conductor")
    assert config_files("nova-conductor") == [api]
    assert config_files("nova-scheduler") == [api]
    assert config_files("nova-cell1-conductor") == [cell]
    assert config_files("nova-compute-1") == [cell, str(nova.configs.compute_conf(1))]
    assert config_files("nova-metadata-api") == [api]
    assert specs["nova-api"][1].probe.url == "http://127.0.0.1:8774/v2.1"
    assert specs["nova-metadata-api"][1].probe.url == "http://127.0.0.1:8775/"
    assert isinstance(specs["nova-compute-2"][1].probe, LogLineProbe)
    # The serial proxy's root is its terminal page.
    assert config_files("nova-serialproxy") == [cell]
    assert specs["nova-serialproxy"][1].probe.url == "http://127.0.0.1:6083/"
    expected_ports = {
        "nova-api": 8774,
        "nova-metadata-api": 8775,
        "nova-serialproxy": 6083,
    }
    if novnc:
        # Console tokens live in the cell database: the cell's file.
        assert config_files("nova-novncproxy") == [cell]
        assert specs["nova-novncproxy"][1].probe.url == "http://127.0.0.1:6080/"
        expected_ports["nova-novncproxy"] = 6080
    assert nova.ports() == expected_ports


def test_a_daemon_whose_files_are_missing_is_left_out_and_said_so(tmp_path):
    here = NovaDaemon(
        "nova-metadata-api",
        "nova-metadata-api",
        ConfigRole.API,
        port="nova_metadata",
        needs_path=str(tmp_path),
    )
    missing = NovaDaemon(
        "nova-novncproxy",
        "nova-novncproxy",
        ConfigRole.CELL,
        port="nova_novncproxy",
        needs_path=str(tmp_path / "no-novnc"),
    )
    nova = _nova(tmp_path, daemons=(here, missing))
    assert [spec.name for _, spec in nova.specs()] == ["nova-metadata-api"]
    assert nova.ports() == {"nova-metadata-api": 8775}

    alone = _nova(tmp_path / "alone", daemons=(missing,))
    lines = []
    alone.progress.line = lines.append
    alone.start_daemons()  # nothing to start but the line saying so
    assert lines == [
        f"nova: nova-novncproxy not started: {tmp_path / 'no-novnc'} is missing"
    ]


def test_declared_setup_commands_build_cell0_and_cell1(tmp_path):
    nova = _nova(tmp_path)
    argvs = [nova.setup_argv(c)[3:] for c in declared.NOVA_SETUP_COMMANDS]
    context = nova.setup_context()
    assert argvs == [
        ("api_db", "sync"),
        ("cell_v2", "map_cell0", "--database_connection", context.cell0_database_url),
        (
            "cell_v2",
            "create_cell",
            "--name",
            "cell1",
            "--transport-url",
            context.cell1_transport_url,
            "--database_connection",
            context.cell1_database_url,
        ),
        ("db", "sync"),
    ]
    assert all(
        nova.setup_argv(c)[2] == str(nova.configs.api_conf)
        for c in declared.NOVA_SETUP_COMMANDS
    )
    (discover,) = declared.NOVA_POST_START_COMMANDS
    assert nova.setup_argv(discover)[3:] == ("cell_v2", "discover_hosts")


def test_log_line_probe_ignores_earlier_runs(tmp_path):
    log = tmp_path / "x.log"
    assert not LogLineProbe.from_now(log, "consuming topic").check(0)
    log.write_text("old run: consuming topic x\n")
    probe = LogLineProbe.from_now(log, "consuming topic")
    assert not probe.check(0)
    with log.open("a") as handle:
        handle.write("starting\n")
    assert not probe.check(0)
    with log.open("a") as handle:
        handle.write("nova-compute on h consuming topic compute\n")
    assert probe.check(0)
    log.write_text("consuming topic\n")  # truncated: read from the start
    assert probe.check(0)


def test_specs_expand_computes_and_pick_config_files(tmp_path):
    nova = _nova(
        tmp_path,
        daemons=(
            NovaDaemon("nova-api", "nova-api", ConfigRole.API, port="nova_api"),
            NovaDaemon("nova-cell1-conductor", "nova-conductor", ConfigRole.CELL),
            NovaDaemon("nova-compute", "nova-compute", ConfigRole.COMPUTE),
        ),
    )
    specs = {spec.name: spec for _, spec in nova.specs()}
    assert list(specs) == [
        "nova-api",
        "nova-cell1-conductor",
        "nova-compute-1",
        "nova-compute-2",
    ]
    configs = nova.configs

    def config_files(name):
        argv = specs[name].argv
        return [argv[i + 1] for i, arg in enumerate(argv) if arg == "--config-file"]

    assert config_files("nova-api") == [str(configs.api_conf)]
    assert config_files("nova-cell1-conductor") == [str(configs.cell1_conf)]
    assert config_files("nova-compute-2") == [
        str(configs.cell1_conf),
        str(configs.compute_conf(2)),
    ]
    api_argv = specs["nova-api"].argv
    assert api_argv[api_argv.index("--log-file") + 1].endswith("logs/nova-api.log")
    assert nova.ports() == {"nova-api": 8774}


def test_probe_factories_get_the_deployment_urls(tmp_path):
    def probe(urls: NovaUrls):
        return HttpProbe(urls.compute_root)

    nova = _nova(
        tmp_path, daemons=(NovaDaemon("nova-api", "x", ConfigRole.API, probe),)
    )
    ((_, spec),) = nova.specs()
    assert spec.probe.url == "http://127.0.0.1:8774/"


def test_setup_command_arguments_are_filled_in(tmp_path):
    command = NovaSetupCommand(
        "create-cell1",
        "nova-manage",
        ConfigRole.API,
        ("cell_v2", "create_cell", "--transport-url", "{cell1_transport_url}"),
    )
    nova = _nova(tmp_path, commands=(command,))
    argv = nova.setup_argv(command)
    assert argv[1:3] == ("--config-file", str(nova.configs.api_conf))
    assert argv[-1] == "rabbit://guest:guest@127.0.0.1:5672/%2Fnova-unit-cell1"


def test_declared_daemons_start_and_stop(tmp_path, fake_daemon):
    def quick(_urls):
        return AliveProbe(0.3)

    nova = _nova(
        tmp_path,
        daemons=(
            NovaDaemon("fake-api", str(fake_daemon), ConfigRole.API, quick),
            NovaDaemon("fake-compute", str(fake_daemon), ConfigRole.COMPUTE, quick),
        ),
    )
    nova.prepare()
    assert set(nova.vhosts.list()) == {"/nova-unit", "/nova-unit-cell1"}
    try:
        nova.start_daemons()
        statuses = {p.name: p.pid() for p in nova.processes()}
        assert set(statuses) == {"fake-api", "fake-compute-1", "fake-compute-2"}
        assert all(pid is not None for pid in statuses.values())
    finally:
        stopped = nova.stop()
    assert stopped == ["fake-compute-2", "fake-compute-1", "fake-api"]
    assert all(proc.group_members(pid) == [] for pid in statuses.values())
    started = [
        json.loads(line)
        for line in (fake_daemon.parent / "started.jsonl").read_text().splitlines()
    ]
    assert len(started) == 3
    assert all("--log-file" in argv for argv in started)
    assert os.path.exists(nova.configs.compute_conf(2))


def test_running_daemons_are_not_started_again(tmp_path, fake_daemon):
    def quick(_urls):
        return AliveProbe(0.3)

    daemons = (NovaDaemon("fake-api", str(fake_daemon), ConfigRole.API, quick),)
    nova = _nova(tmp_path, daemons=daemons)
    nova.prepare()
    try:
        nova.start_daemons()
        (first,) = [p.pid() for p in nova.processes()]
        nova.start_daemons()
        assert [p.pid() for p in nova.processes()] == [first]
    finally:
        nova.stop()
