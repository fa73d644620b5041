"""A RabbitMQ and a MariaDB of the test's own, to stop and kill.

The machine's broker and database server are shared with other test runs:
a fault test never touches them. It starts its own RabbitMQ node (own node
name, AMQP and distribution ports, Mnesia and log directories, no plugins)
and its own MariaDB server (own data directory, port, socket and pid
file), both under the test's temporary directory, and stops them at the end.

Ports are picked below the kernel's ephemeral range, where an outgoing
connection's local port cannot take them between the pick and the bind.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import sqlalchemy as sa

from tests.fixtures import rabbitmq

RABBITMQ_BIN = Path("/usr/lib/rabbitmq/bin")
# rabbitmqctl (the packaged wrapper runs it as the rabbitmq user) and the
# node must share an Erlang cookie: the node reads that user's.
RABBITMQ_HOME = Path("/var/lib/rabbitmq")
PORT_RANGE = (20000, 32000)
START_TIMEOUT = 120


def unavailable_reason() -> str | None:
    missing = [
        name
        for name in ("rabbitmq-server", "rabbitmqctl", "mariadbd", "mariadb-install-db")
        if shutil.which(name) is None and not (RABBITMQ_BIN / name).exists()
    ]
    if missing:
        return f"private brokers and databases need {', '.join(missing)}"
    return None


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port_pair() -> int:
    """A port ``p`` with ``p`` and ``p + 1`` free."""
    for _ in range(200):
        port = random.randrange(*PORT_RANGE)
        if _free(port) and _free(port + 1):
            return port
    raise AssertionError("no free port pair below the ephemeral range")


def _wait_listening(port: int, process: subprocess.Popen, what: str, log: Path):
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"{what} exited with {process.returncode}:\n"
                + log.read_text(errors="replace")[-3000:]
            )
        with contextlib.suppress(OSError):
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        time.sleep(0.5)
    raise AssertionError(f"{what} not listening on {port} after {START_TIMEOUT} s")


def _executable(name: str) -> str:
    own = RABBITMQ_BIN / name
    return str(own) if own.exists() else shutil.which(name)


class PrivateRabbitMQ:
    """One RabbitMQ node in ``directory``; ``environment`` is what
    ``rabbitmqctl`` (ours, or the launcher's) needs to manage it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port_pair()
        self.node = f"novafaults{self.port}@localhost"
        self.process: subprocess.Popen | None = None
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "rabbitmq.conf").write_text("")
        (directory / "enabled_plugins").write_text("[].\n")

    @property
    def url(self) -> str:
        return f"rabbit://{rabbitmq.USER}:{rabbitmq.PASSWORD}@127.0.0.1:{self.port}/"

    @property
    def environment(self) -> dict[str, str]:
        return {
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(self.port + 1),
            "RABBITMQ_MNESIA_BASE": str(self.directory / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.directory / "log"),
            "RABBITMQ_PID_FILE": str(self.directory / "rabbitmq.pid"),
            "RABBITMQ_CONFIG_FILE": str(self.directory / "rabbitmq.conf"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.directory / "enabled_plugins"),
        }

    def _env(self) -> dict[str, str]:
        env = dict(os.environ, **self.environment)
        # Not the machine's node settings (/etc/rabbitmq/rabbitmq-env.conf).
        env["RABBITMQ_CONF_ENV_FILE"] = "/dev/null"
        if RABBITMQ_HOME.is_dir():
            env["HOME"] = str(RABBITMQ_HOME)
        return env

    def start(self) -> None:
        log = self.directory / "server.out"
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [_executable("rabbitmq-server")],
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _wait_listening(self.port, self.process, f"RabbitMQ {self.node}", log)

    def stop(self) -> None:
        """``rabbitmqctl -n NODE stop``: the node shuts down and exits."""
        if self.process is None or self.process.poll() is not None:
            return
        subprocess.run(
            [_executable("rabbitmqctl"), "-n", self.node, "stop"],
            env=self._env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


class PrivateMariaDB:
    """One MariaDB server with its data directory in ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.datadir = directory / "data"
        self.port = free_port_pair()
        self.process: subprocess.Popen | None = None
        directory.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        """An administrative URL (root, no password, on loopback)."""
        return f"mysql+pymysql://root@127.0.0.1:{self.port}/"

    def start(self) -> None:
        if not self.datadir.exists():
            subprocess.run(
                [
                    "mariadb-install-db",
                    "--no-defaults",
                    f"--datadir={self.datadir}",
                    "--user=root",
                    "--auth-root-authentication-method=normal",
                    "--skip-test-db",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
                timeout=300,
            )
        log = self.directory / "server.err"
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    "mariadbd",
                    "--no-defaults",
                    f"--datadir={self.datadir}",
                    f"--port={self.port}",
                    "--bind-address=127.0.0.1",
                    f"--socket={self.directory / 'mariadb.sock'}",
                    f"--pid-file={self.directory / 'mariadb.pid'}",
                    "--user=root",
                    "--max-connections=1000",
                    "--innodb-flush-log-at-trx-commit=2",
                    "--skip-name-resolve",
                ],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _wait_listening(self.port, self.process, "MariaDB", log)
        # Listening comes before accepting logins: wait for a query.
        engine = sa.create_engine(self.url, connect_args={"connect_timeout": 5})
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                try:
                    with engine.connect() as connection:
                        connection.execute(sa.text("SELECT 1"))
                    return
                except sa.exc.OperationalError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
        finally:
            engine.dispose()

    def kill(self) -> None:
        """``kill -9`` the server, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
