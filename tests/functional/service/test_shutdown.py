"""SIGTERM over real RabbitMQ: a daemon finishes the request it is serving,
then exits within a second."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import oslo_messaging
import pytest

from nova import context, objects, rpc, servicegroup
from nova.conf import CONF
from nova.db import engines, migration
from tests.functional.boot.deployment import REPO, render, wait_for

pytestmark = [
    pytest.mark.rabbitmq,
    # The database only holds the service record: one backend is enough.
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]
objects.register_all()

# What the daemon may take after its last request to leave its queue, close
# its connections and exit.
EXIT_WITHIN_SECONDS = 1.0
IDLE_SECONDS = 6


@pytest.fixture
def daemon(make_db_url, transport_url, tmp_path):
    """Start slow_daemon on ``host``; returns (process, log path)."""
    database = make_db_url("cell")
    migration.db_sync("main", database)
    CONF.set_override("connection", database, group="database")
    CONF.set_override("transport_url", transport_url)
    config_file = tmp_path / "nova.conf"
    config_file.write_text(
        render(
            {
                "DEFAULT": {
                    "host": "slow-host",
                    "transport_url": transport_url,
                    "report_interval": 1,
                    "service_down_time": 30,
                    "graceful_shutdown_timeout": 20,
                    "debug": True,
                },
                "database": {"connection": database},
            }
        )
    )
    log = tmp_path / "slow.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.functional.service.slow_daemon"]
        + ["--config-file", str(config_file), "--log-file", str(log)],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "slow.stderr", "wb"),
    )
    try:
        wait_for(
            lambda: log.exists() and "consuming topic slow" in log.read_text(),
            60,
            "the daemon to consume its topic",
        )
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        rpc.cleanup()
        CONF.clear_override("transport_url")
        CONF.clear_override("connection", group="database")
        engines.dispose(database)


def _record():
    ctxt = context.get_admin_context()
    return objects.Service.get_by_host_and_binary(ctxt, "slow-host", "nova-slow")


def _stop(process) -> float:
    """SIGTERM ``process``; the wall-clock time it exited at."""
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    return time.time()


def test_an_idle_daemon_exits_within_a_second(daemon):
    assert servicegroup.service_is_up(_record())
    # Idle long enough for the listener's poll to back off to its longest
    # wait; tearing the interpreter down then took 9-12 s.
    time.sleep(IDLE_SECONDS)
    sent = time.time()
    exited = _stop(daemon)
    assert daemon.returncode == 0
    assert exited - sent < EXIT_WITHIN_SECONDS, exited - sent


def test_a_daemon_finishes_its_request_then_exits_within_a_second(daemon, tmp_path):
    stamps = tmp_path / "stamps"
    stamps.mkdir()
    client = oslo_messaging.get_rpc_client(
        rpc.get_transport(),
        oslo_messaging.Target(topic="slow", server="slow-host", version="1.0"),
        serializer=rpc.RequestContextSerializer(),
    )
    client.cast(context.get_admin_context(), "work", seconds=2.0, stamps=str(stamps))
    wait_for(lambda: (stamps / "started").exists(), 30, "the request to start")
    exited = _stop(daemon)
    assert daemon.returncode == 0
    finished = float((stamps / "finished").read_text())  # it was not cut short
    assert exited - finished < EXIT_WITHIN_SECONDS, exited - finished
