"""A whole local deployment: upstream services plus ours, in one state dir.

``Deployment(state_dir).start()`` is what ``nova-local-cloud start`` does:
Keystone, Placement and Glance (:mod:`nova.launcher.upstream`) come up while
our databases, vhosts and ``nova.conf`` files are prepared
(:mod:`nova.launcher.nova_services`); then our setup commands and daemons,
as declared in :mod:`nova.launcher.daemons`, run. It is idempotent (all
running: it says so and returns) and resumable (settings and completed steps
are kept in the state directory; a later start reuses them).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TextIO

from nova.launcher.daemons import (
    NOVA_DAEMONS,
    NOVA_POST_START_COMMANDS,
    NOVA_SETUP_COMMANDS,
    ConfigRole,
    NovaDaemon,
    NovaSetupCommand,
)
from nova.launcher.errors import LauncherError, StateMismatch
from nova.launcher.nova_services import NovaServices
from nova.launcher.ports import require_free
from nova.launcher.process import ProcessSpec, ProcessStatus, SupervisedProcess
from nova.launcher.progress import Progress
from nova.launcher.rabbitmq import RabbitVhosts
from nova.launcher.settings import DeploymentSettings
from nova.launcher.state import StateDir
from nova.launcher.upstream import UpstreamServices

# Settings that shape names and files; a resumed deployment must keep them.
IDENTITY_FIELDS = (
    "name",
    "db",
    "db_url",
    "computes",
    "ports",
    "region",
    "all_in_one",
    "transport_url",
    "compute_driver",
)


class Deployment:
    """One deployment in ``state_dir``.

    ``settings`` are used when the directory holds no deployment yet; when it
    does, the saved settings win and ``settings`` (if given) must agree on
    :data:`IDENTITY_FIELDS`, else :class:`StateMismatch`. ``out`` receives
    progress lines (None: silent).
    """

    def __init__(
        self,
        state_dir: Path | str,
        settings: DeploymentSettings | None = None,
        out: TextIO | None = sys.stdout,
        daemons: Sequence[NovaDaemon] = NOVA_DAEMONS,
        setup_commands: Sequence[NovaSetupCommand] = NOVA_SETUP_COMMANDS,
        vhosts: RabbitVhosts | None = None,
        post_start_commands: Sequence[NovaSetupCommand] = NOVA_POST_START_COMMANDS,
    ) -> None:
        self.state = StateDir(state_dir)
        self.out = out
        saved = DeploymentSettings.load(self.state.settings_file)
        if saved is not None and settings is not None:
            differing = [
                key
                for key in IDENTITY_FIELDS
                if getattr(saved, key) != getattr(settings, key)
            ]
            if differing:
                raise StateMismatch(
                    f"{self.state.root} holds deployment {saved.name!r} whose "
                    f"{', '.join(differing)} differ from those requested"
                )
        self.exists = saved is not None
        self.settings = saved or settings or DeploymentSettings()
        self._daemons = tuple(daemons)
        self._setup_commands = tuple(setup_commands)
        self._vhosts = vhosts
        self._post_start_commands = tuple(post_start_commands)

    @classmethod
    def open(cls, state_dir: Path | str, out: TextIO | None = sys.stdout) -> Deployment:
        """The deployment saved in ``state_dir``; error if there is none."""
        deployment = cls(state_dir, out=out)
        if not deployment.exists:
            raise LauncherError(f"no deployment in {deployment.state.root}")
        return deployment

    exit_with_pid: int | None = None
    """Passed to :class:`UpstreamServices`: their servers stop by themselves
    once this process is gone."""

    def _parts(self, progress: Progress) -> tuple[UpstreamServices, NovaServices]:
        upstream = UpstreamServices(
            self.state, self.settings, progress, exit_with_pid=self.exit_with_pid
        )
        nova = NovaServices(
            self.state,
            self.settings,
            upstream,
            progress,
            daemons=self._daemons,
            setup_commands=self._setup_commands,
            vhosts=self._vhosts,
            post_start_commands=self._post_start_commands,
        )
        return upstream, nova

    @property
    def upstream(self) -> UpstreamServices:
        """Keystone/Placement/Glance of this deployment (URLs, users, clouds)."""
        return self._parts(Progress(None))[0]

    @property
    def nova(self) -> NovaServices:
        """Our side: config file paths, database and vhost names."""
        return self._parts(Progress(None))[1]

    def processes(self) -> list[SupervisedProcess]:
        """Every supervised process in start order, plus any process with a
        pidfile in the state directory that the settings no longer name."""
        upstream, nova = self._parts(Progress(None))
        known = upstream.processes() + nova.processes()
        names = {p.name for p in known}
        strays = [
            SupervisedProcess(
                ProcessSpec(name=path.stem, argv=()), self.state.run, self.state.logs
            )
            for path in sorted(self.state.run.glob("*.pid"))
            if path.stem not in names
        ]
        return known + strays

    # -- commands -------------------------------------------------------------

    def start(self) -> None:
        """Start whatever is not running; print progress with timings."""
        progress = Progress(self.out)
        upstream, nova = self._parts(progress)
        processes = upstream.processes() + nova.processes()
        if self.exists and all(p.is_running() for p in processes):
            progress.line(
                f"deployment {self.settings.name!r} is already running "
                f"(state {self.state.root})"
            )
            self._summary(progress, upstream, nova)
            return
        progress.line(
            f"starting deployment {self.settings.name!r}: db {self.settings.db}, "
            f"{self.settings.computes} compute(s), state {self.state.root}"
            + (" (resuming)" if self.exists else "")
        )
        down = {p.name for p in processes if not p.is_running()}
        wanted_ports = {
            name: port for name, port in upstream.ports().items() if name in down
        }
        require_free({**wanted_ports, **self._our_ports(nova, down)})
        self.state.create()
        if not self.exists:
            self.settings.save(self.state.settings_file)
            self.exists = True
        try:
            # Our databases need neither Keystone nor Placement nor Glance:
            # they are created and set up while those start.
            with ThreadPoolExecutor(2, thread_name_prefix="deploy") as pool:
                services = pool.submit(upstream.start)
                resources = pool.submit(
                    lambda: (nova.prepare(), nova.run_setup_commands())
                )
                errors = [f.exception() for f in (services, resources)]
            for error in errors:
                if error is not None:
                    raise error
            self._start_our_services(nova, progress)
            nova.run_post_start_commands()
        except BaseException as exc:
            why = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            progress.line(f"start {why}; stopping what was started (logs are kept)")
            self.stop(quiet=True)
            raise
        progress.line(f"deployment {self.settings.name!r} is up")
        self._summary(progress, upstream, nova)

    def _our_ports(self, nova: NovaServices, down: set[str]) -> dict[str, int]:
        """The ports our services about to start bind, by process name
        (``down``: the names of the processes not running)."""
        return {name: port for name, port in nova.ports().items() if name in down}

    def _start_our_services(self, nova: NovaServices, progress: Progress) -> None:
        """Start our daemons (once the databases are set up)."""
        nova.start_daemons()

    def _summary(
        self, progress: Progress, upstream: UpstreamServices, nova: NovaServices
    ) -> None:
        clouds = upstream.clouds()
        lines = [
            f"  identity   {upstream.auth_url}",
            f"  placement  {upstream.placement.url}",
            f"  image      {upstream.glance.url}",
            f"  compute    {upstream.compute_url}",
            *(
                [f"  dashboard  {upstream.horizon.url}/  (log in as admin or demo)"]
                if upstream.horizon is not None
                else []
            ),
            f"  nova.conf  {nova.configs.api_conf} (cell1: {nova.configs.cell1_conf})",
            f"  logs       {self.state.logs}",
            f"  export OS_CLIENT_CONFIG_FILE={self.state.clouds_yaml}",
            f"  openstack --os-cloud {clouds['admin'].name} catalog list   "
            f"(also: {clouds['demo'].name}, {clouds['reader'].name})",
        ]
        if progress.out is not None:
            progress.out.write("\n".join(lines) + "\n")
            progress.out.flush()

    def stop_phases(self) -> list[list[SupervisedProcess]]:
        """Running processes in the order they are stopped, a phase at a
        time (the processes of one phase stop together): our computes (and
        strays), then the rest of ours, then the upstream services."""
        upstream, nova = self._parts(Progress(None))
        theirs = {p.name for p in upstream.processes()}
        computes = {s.name for r, s in nova.specs() if r is ConfigRole.COMPUTE}
        ours = {p.name for p in nova.processes()} - computes
        phases: list[list[SupervisedProcess]] = [[], [], []]
        for process in reversed(self.processes()):
            if process.name in theirs:
                phases[2].append(process)
            elif process.name in ours:
                phases[1].append(process)
            else:
                phases[0].append(process)
        return [phase for phase in phases if phase]

    def stop(self, quiet: bool = False) -> list[str]:
        """Stop every process of the deployment (ours first, then upstream's).

        Each of our services takes seconds to leave its queues, so the
        processes of a phase (see :meth:`stop_phases`) stop in parallel.
        Databases, vhosts and the state directory are kept for a later start.
        """
        progress = Progress(None if quiet else self.out)
        stopped = []

        def stop_one(process: SupervisedProcess) -> str | None:
            pid = process.pid()
            began = time.monotonic()
            if not process.stop():
                return None
            progress.line(
                f"stopped {process.name} (pid {pid}, {time.monotonic() - began:.1f} s)"
            )
            return process.name

        for phase in self.stop_phases():
            with ThreadPoolExecutor(len(phase), thread_name_prefix="stop") as pool:
                stopped += [name for name in pool.map(stop_one, phase) if name]
        if not stopped:
            progress.line(f"nothing running in {self.state.root}")
        return stopped

    def status(self) -> list[ProcessStatus]:
        return [process.status() for process in self.processes()]

    def destroy(self) -> None:
        """Stop, drop every database, delete the vhosts, remove the state dir."""
        self.stop()
        if not self.exists:
            return
        upstream, nova = self._parts(Progress(self.out))
        nova.destroy_resources()
        upstream.drop_databases()
        shutil.rmtree(self.state.root)
        self.exists = False
