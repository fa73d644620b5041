"""A supervised child process: own session, log file, pidfile, readiness, stop.

The launcher is not a resident supervisor: ``start`` spawns the children and
returns, ``stop`` (possibly from another invocation) finds them again through
their pidfiles. Each child therefore

* runs in its own session (``setsid``), so it survives the launcher, has no
  controlling terminal, and all its workers share one process group that can
  be signalled at once;
* has its start time (from ``/proc/<pid>/stat``) recorded next to its
  pidfile, in ``<name>.started``, so a pidfile whose pid the kernel has since
  handed to an unrelated process is recognised as stale rather than obeyed.
  The pidfile itself holds just the pid, as tools expect.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from nova.launcher import proc
from nova.launcher.commands import shown_command
from nova.launcher.errors import LauncherError, ProcessNotReady
from nova.launcher.files import tail, write_file
from nova.launcher.probes import AliveProbe, ReadinessProbe

POLL_INTERVAL = 0.2


@dataclass(frozen=True)
class ProcessSpec:
    """What to run and how to know it works.

    ``config_files`` are checked to exist before start (a missing file is a
    launcher bug better reported plainly than as the child's traceback);
    ``service_logs`` are log files the program writes itself (e.g. oslo.log's
    ``log_file``), whose tails are quoted when the process fails.
    """

    name: str
    argv: tuple[str, ...]
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    config_files: tuple[Path, ...] = ()
    probe: ReadinessProbe = AliveProbe()
    ready_timeout: float = 120.0
    stop_timeout: float = 15.0
    service_logs: tuple[Path, ...] = ()


@dataclass(frozen=True)
class ProcessStatus:
    """A snapshot of one supervised process, for ``status`` output."""

    name: str
    pid: int | None
    rss_kib: int
    log: Path

    @property
    def running(self) -> bool:
        return self.pid is not None


class SupervisedProcess:
    """Start, watch and stop one :class:`ProcessSpec`.

    stdout and stderr go to ``<log_dir>/<name>.stdout.log``; the pid of the session
    leader goes to ``<run_dir>/<name>.pid``.
    """

    def __init__(self, spec: ProcessSpec, run_dir: Path, log_dir: Path) -> None:
        self.spec = spec
        self.pidfile = run_dir / f"{spec.name}.pid"
        self.startfile = run_dir / f"{spec.name}.started"
        self.log_path = log_dir / f"{spec.name}.stdout.log"
        self._popen: subprocess.Popen[bytes] | None = None
        self._started_at: float | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    # -- identity -----------------------------------------------------------

    def pid(self) -> int | None:
        """The pid from the pidfile if that process is ours and alive.

        A stale pidfile (process gone, a zombie, or the pid reused by a
        process not started by us) is removed and None returned.
        """
        try:
            pid = int(self.pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        self._reap()
        recorded = self._recorded_start()
        if proc.is_alive(pid) and recorded in (None, proc.start_time(pid)):
            return pid
        self._forget()
        return None

    def _recorded_start(self) -> int | None:
        try:
            return int(self.startfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    def _forget(self) -> None:
        self.pidfile.unlink(missing_ok=True)
        self.startfile.unlink(missing_ok=True)

    def is_running(self) -> bool:
        return self.pid() is not None

    def status(self) -> ProcessStatus:
        pid = self.pid()
        rss = 0
        if pid is not None:
            rss = sum(proc.rss_kib(member) for member in proc.group_members(pid))
        return ProcessStatus(self.name, pid, rss, self.log_path)

    # -- start and readiness ------------------------------------------------

    def start(self) -> int:
        """Spawn the process unless it already runs; return its pid."""
        pid = self.pid()
        if pid is not None:
            return pid
        missing = [str(path) for path in self.spec.config_files if not path.exists()]
        if missing:
            raise LauncherError(
                f"{self.name}: configuration file(s) missing: {', '.join(missing)}"
            )
        self.pidfile.parent.mkdir(parents=True, exist_ok=True)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env.update(self.spec.env)
        _exempt_loopback_from_proxies(env)
        with self.log_path.open("ab") as log:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            log.write(
                f"=== {stamp} starting {shown_command(self.spec.argv)}"
                f" (cwd {self.spec.cwd or os.getcwd()}) ===\n".encode()
            )
            log.flush()
            try:
                self._popen = subprocess.Popen(
                    self.spec.argv,
                    cwd=self.spec.cwd,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    close_fds=True,
                )
            except OSError as exc:
                raise LauncherError(
                    f"{self.name}: cannot run {self.spec.argv[0]}: {exc}"
                ) from None
        self._started_at = time.monotonic()
        pid = self._popen.pid
        write_file(self.startfile, f"{proc.start_time(pid)}\n", mode=0o644)
        write_file(self.pidfile, f"{pid}\n", mode=0o644)
        return self._popen.pid

    def wait_ready(self, timeout: float | None = None) -> float:
        """Block until the probe succeeds; return the seconds it took.

        Raises :class:`ProcessNotReady` with the log tails if the process
        exits first or the deadline passes (the process is left running in
        the latter case; callers decide whether to stop it).
        """
        timeout = self.spec.ready_timeout if timeout is None else timeout
        began = time.monotonic()
        started = self._started_at if self._started_at is not None else began - 3600
        probe = self.spec.probe
        while True:
            if not self.is_running():
                code = self._popen.poll() if self._popen is not None else None
                how = f"exited with code {code}" if code is not None else "exited"
                raise ProcessNotReady(
                    f"{self.name} {how} before becoming ready "
                    f"({probe.describe()}).\n{self.log_tails()}"
                )
            if probe.check(time.monotonic() - started):
                return time.monotonic() - began
            if time.monotonic() - began > timeout:
                raise ProcessNotReady(
                    f"{self.name} not ready after {timeout:g} s "
                    f"({probe.describe()}).\n{self.log_tails()}"
                )
            time.sleep(POLL_INTERVAL)

    def log_tails(self, lines: int = 25) -> str:
        """The last lines of the process's own log and its service logs."""
        parts = []
        for path in (self.log_path, *self.spec.service_logs):
            parts.append(f"--- last lines of {path} ---\n{tail(path, lines)}")
        return "\n".join(parts)

    # -- stop ---------------------------------------------------------------

    def stop(self, timeout: float | None = None) -> bool:
        """SIGTERM the process group, wait, then SIGKILL what remains.

        Returns False if nothing was running. Raises :class:`LauncherError`
        if processes survive SIGKILL (which only a kernel in trouble does).
        """
        timeout = self.spec.stop_timeout if timeout is None else timeout
        pid = self.pid()
        if pid is None:
            self._forget()
            return False
        self._signal_group(pid, signal.SIGTERM)
        if not self._wait_group_gone(pid, timeout):
            self._signal_group(pid, signal.SIGKILL)
            if not self._wait_group_gone(pid, 5.0):
                raise LauncherError(
                    f"{self.name}: processes {proc.group_members(pid)} survive SIGKILL"
                )
        self._forget()
        return True

    @staticmethod
    def _signal_group(pid: int, signum: int) -> None:
        try:
            if os.getpgid(pid) == pid:
                os.killpg(pid, signum)
            else:  # not a session leader after all: signal just the process
                os.kill(pid, signum)
        except ProcessLookupError:
            pass

    def _wait_group_gone(self, pgid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            self._reap()
            if not proc.group_members(pgid):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(POLL_INTERVAL / 2)

    def _reap(self) -> None:
        """Collect our own child's exit status so it does not stay a zombie."""
        if self._popen is not None:
            self._popen.poll()


def _exempt_loopback_from_proxies(env: dict[str, str]) -> None:
    """Make loopback bypass any HTTP proxy the caller's environment sets.

    Supervised services talk to each other on 127.0.0.1 (token validation,
    catalog look-ups); a developer's ``http_proxy`` must not capture that.
    """
    for key in ("no_proxy", "NO_PROXY"):
        entries = [e for e in env.get(key, "").split(",") if e.strip()]
        for host in ("127.0.0.1", "localhost"):
            if host not in entries:
                entries.append(host)
        env[key] = ",".join(entries)
