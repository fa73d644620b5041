"""``nova-local-cloud`` end to end: start, status, resume, stop, destroy.

A whole deployment on MariaDB or PostgreSQL with its RabbitMQ vhosts, run
through the console entry point in a child process exactly as a developer
would, on ports shifted away from a developer's own cloud.
"""

from __future__ import annotations

import configparser
import os
import random
import subprocess
import sys
import urllib.parse
import uuid

import pytest
import sqlalchemy as sa

from nova.launcher import proc
from nova.launcher.daemons import NOVNC_WEB
from nova.launcher.databases import ServerDatabases
from nova.launcher.ports import ports_in_use
from nova.launcher.rabbitmq import RabbitVhosts
from nova.launcher.settings import Ports
from tests.fixtures.databases import (
    ADMIN_URLS,
    backend_unavailable_reason,
    skip_or_fail,
)
from tests.fixtures.openstack_services import missing_packages

pytestmark = [pytest.mark.integration, pytest.mark.rabbitmq]

# Upstream's services and ours, with --computes 2.
PROCESSES = (
    "keystone",
    "placement",
    "glance",
    "nova-api",
    "nova-metadata-api",
    "nova-scheduler",
    "nova-conductor",
    "nova-cell1-conductor",
    # Only where the noVNC web client is installed.
    *(["nova-novncproxy"] if os.path.isdir(NOVNC_WEB) else []),
    "nova-serialproxy",
    "nova-compute-1",
    "nova-compute-2",
)


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nova.launcher.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _free_port_offset() -> int:
    """An offset that moves every default port onto a free one."""
    for _ in range(50):
        offset = random.randrange(10000, 50000)
        ports = vars(Ports().offset(offset))
        if not ports_in_use(ports):
            return offset
    raise AssertionError("no free port offset found")


def _rabbitmq_unavailable_reason() -> str | None:
    try:
        RabbitVhosts(timeout=30).list()
    except Exception as exc:
        return f"RabbitMQ not manageable with rabbitmqctl: {exc}"
    return None


@pytest.fixture(
    params=[
        pytest.param("mysql", marks=pytest.mark.mysql),
        pytest.param("postgresql", marks=pytest.mark.postgresql),
    ]
)
def server_backend(request) -> str:
    missing = missing_packages()
    reason = (
        f"needs {', '.join(missing)}"
        if missing
        else backend_unavailable_reason(request.param) or _rabbitmq_unavailable_reason()
    )
    if reason:
        skip_or_fail(reason)
    return request.param


def _read_conf(path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    assert parser.read(path), f"{path} missing"
    return parser


def _database_of(url: str) -> str | None:
    return sa.engine.make_url(url).database


def _pids(status_output: str) -> dict[str, int]:
    """``{name: pid}`` from ``status`` lines like ``  keystone  running  pid 12``."""
    pids = {}
    for line in status_output.splitlines()[1:]:
        fields = line.split()
        if fields[1] == "running":
            pids[fields[0]] = int(fields[3])
    return pids


def _group_members(pids: dict[str, int]) -> dict[str, list[int]]:
    members = {name: proc.group_members(pid) for name, pid in pids.items()}
    return {name: found for name, found in members.items() if found}


def _check_nova_config(nova_dir, name: str) -> None:
    api = _read_conf(nova_dir / "nova.conf")
    assert _database_of(api["api_database"]["connection"]) == f"{name}_nova_api"
    assert _database_of(api["database"]["connection"]) == f"{name}_nova_cell0"
    vhost = urllib.parse.urlsplit(api["DEFAULT"]["transport_url"]).path
    assert urllib.parse.unquote(vhost[1:]) == f"/nova-{name}"
    assert api["api"]["auth_strategy"] == "keystone"
    assert api["keystone_authtoken"]["username"] == "nova"
    assert api["placement"]["username"] == api["glance"]["username"] == "nova"
    cell1 = _read_conf(nova_dir / "nova-cell1.conf")
    assert not cell1.has_section("api_database")
    assert _database_of(cell1["database"]["connection"]) == f"{name}_nova_cell1"
    vhost = urllib.parse.urlsplit(cell1["DEFAULT"]["transport_url"]).path
    assert urllib.parse.unquote(vhost[1:]) == f"/nova-{name}-cell1"
    for conf in (api, cell1):
        port = int(conf["vnc"]["novncproxy_port"])
        assert conf["vnc"]["novncproxy_base_url"] == (
            f"http://127.0.0.1:{port}/vnc_lite.html"
        )
    compute2 = _read_conf(nova_dir / "nova-compute-2.conf")
    assert compute2["DEFAULT"]["host"] == "compute-2"
    assert compute2["DEFAULT"]["compute_driver"] == "fake.FakeDriver"


def test_start_status_resume_stop_destroy(server_backend, tmp_path):
    state = tmp_path / "cloud"
    name = f"it{uuid.uuid4().hex[:8]}"
    base = ["--state-dir", str(state)]
    start = [
        "start", *base, "--db", server_backend, "--db-url", ADMIN_URLS[server_backend],
        "--name", name, "--computes", "2", "--port-offset", str(_free_port_offset()),
    ]  # fmt: skip
    databases = ServerDatabases(ADMIN_URLS[server_backend])
    vhosts = RabbitVhosts()
    pids: dict[str, int] = {}
    try:
        first = _cli(*start)
        assert first.returncode == 0, first.stdout + first.stderr
        assert f"deployment {name!r} is up" in first.stdout
        assert (state / "clouds.yaml").exists()
        status = _cli("status", *base)
        assert status.returncode == 0, status.stdout + status.stderr
        pids = _pids(status.stdout)
        assert sorted(pids) == sorted(PROCESSES)

        for suffix in ("nova_api", "nova_cell0", "nova_cell1", "keystone"):
            assert databases.exists(f"{name}_{suffix}")
        assert {f"/nova-{name}", f"/nova-{name}-cell1"} <= set(vhosts.list())
        _check_nova_config(state / "nova", name)

        again = _cli(*start)
        assert again.returncode == 0
        assert "already running" in again.stdout

        stop = _cli("stop", *base)
        assert stop.returncode == 0, stop.stdout + stop.stderr
        assert _group_members(pids) == {}
        assert _cli("status", *base).returncode == 3

        resumed = _cli("start", *base)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        assert "(resuming)" in resumed.stdout
        assert "set-up done" not in resumed.stdout  # one-time steps not redone
        pids = _pids(_cli("status", *base).stdout)
        assert sorted(pids) == sorted(PROCESSES)
    finally:
        destroyed = _cli("destroy", *base)
    assert destroyed.returncode == 0, destroyed.stdout + destroyed.stderr
    assert _group_members(pids) == {}
    assert not state.exists()
    assert not databases.exists(f"{name}_nova_api")
    assert not databases.exists(f"{name}_keystone")
    assert f"/nova-{name}" not in vhosts.list()
