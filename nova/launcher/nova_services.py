"""Our side of a deployment: databases, vhosts, nova.conf files, daemons.

Databases ``<name>_nova_api``, ``<name>_nova_cell0``, ``<name>_nova_cell1``
and RabbitMQ vhosts ``/nova-<name>`` (API level) and ``/nova-<name>-cell1``
are created idempotently; the configuration files are rewritten on every
start; then the declared setup commands, daemons and post-start commands
(:mod:`nova.launcher.daemons`) run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nova.launcher.commands import run_command, venv_script
from nova.launcher.daemons import (
    NOVA_DAEMONS,
    NOVA_POST_START_COMMANDS,
    NOVA_SETUP_COMMANDS,
    ConfigRole,
    NovaDaemon,
    NovaSetupCommand,
    NovaUrls,
    SetupContext,
)
from nova.launcher.databases import Databases, databases_for
from nova.launcher.nova_config import NovaConfigFiles
from nova.launcher.ports import LOOPBACK
from nova.launcher.probes import LogLineProbe
from nova.launcher.process import ProcessSpec, SupervisedProcess
from nova.launcher.progress import Progress
from nova.launcher.rabbitmq import RabbitVhosts, broker_user, transport_url
from nova.launcher.settings import DeploymentSettings
from nova.launcher.state import StateDir
from nova.launcher.upstream import UpstreamServices

NOVA_DATABASES = ("nova_api", "nova_cell0", "nova_cell1")
# The host every all-in-one service records: one host, as in DevStack, and
# fixed so that a resumed cloud finds its compute node again.
ALL_IN_ONE_HOST = "aio"


class NovaServices:
    """Resources and processes of our own services in one deployment."""

    def __init__(
        self,
        state: StateDir,
        settings: DeploymentSettings,
        upstream: UpstreamServices,
        progress: Progress | None = None,
        daemons: Sequence[NovaDaemon] = NOVA_DAEMONS,
        setup_commands: Sequence[NovaSetupCommand] = NOVA_SETUP_COMMANDS,
        vhosts: RabbitVhosts | None = None,
        post_start_commands: Sequence[NovaSetupCommand] = NOVA_POST_START_COMMANDS,
    ) -> None:
        self.state = state
        self.settings = settings
        self.progress = progress or Progress(None)
        # A daemon serving files of a package that is not installed is left
        # out (and said so on start) rather than failing the whole cloud.
        self.daemons = tuple(
            d for d in daemons if d.needs_path is None or os.path.exists(d.needs_path)
        )
        self.left_out = tuple(d for d in daemons if d not in self.daemons)
        self.setup_commands = tuple(setup_commands)
        self.post_start_commands = tuple(post_start_commands)
        self.vhosts = vhosts or RabbitVhosts()
        self.databases: Databases = databases_for(
            settings.db, settings.db_url, state.db
        )
        base = settings.dashed_name
        self.api_vhost = f"/nova-{base}"
        self.cell1_vhost = f"/nova-{base}-cell1"
        self.configs = NovaConfigFiles(
            directory=state.service("nova"),
            api_database_url=self.databases.url(self.database_name("nova_api")),
            cell0_database_url=self.databases.url(self.database_name("nova_cell0")),
            cell1_database_url=self.databases.url(self.database_name("nova_cell1")),
            api_transport_url=settings.transport_url
            or transport_url(settings.rabbit_url, self.api_vhost),
            cell1_transport_url=settings.transport_url
            or transport_url(settings.rabbit_url, self.cell1_vhost),
            nova_user=upstream.service_user("nova"),
            api_port=settings.ports.nova_api,
            metadata_port=settings.ports.nova_metadata,
            novncproxy_port=settings.ports.nova_novncproxy,
            serialproxy_port=settings.ports.nova_serialproxy,
            computes=settings.computes,
            options=settings.nova_options,
            compute_driver=settings.compute_driver,
            all_in_one_host=ALL_IN_ONE_HOST if settings.all_in_one else None,
        )
        self.urls = NovaUrls(
            compute_root=f"http://{LOOPBACK}:{settings.ports.nova_api}/",
            compute_api=upstream.compute_url,
            metadata_root=f"http://{LOOPBACK}:{settings.ports.nova_metadata}/",
            novncproxy_root=f"http://{LOOPBACK}:{settings.ports.nova_novncproxy}/",
            serialproxy_root=f"http://{LOOPBACK}:{settings.ports.nova_serialproxy}/",
        )

    @property
    def vhost_names(self) -> tuple[str, str]:
        return (self.api_vhost, self.cell1_vhost)

    def database_name(self, database: str) -> str:
        return f"{self.settings.name}_{database}"

    # -- resources ------------------------------------------------------------

    def prepare(self) -> None:
        """Create databases and vhosts (once) and write the config files."""
        if not self.state.step_done("nova-databases"):
            with self.progress.step(
                f"nova: databases {', '.join(map(self.database_name, NOVA_DATABASES))}"
                f" on {self.databases.backend}"
            ):
                for database in NOVA_DATABASES:
                    self.databases.ensure(self.database_name(database))
            self.state.mark_step("nova-databases")
        if not self.settings.transport_url and not self.state.step_done("nova-vhosts"):
            with self.progress.step(
                f"nova: RabbitMQ vhosts {self.api_vhost}, {self.cell1_vhost}"
            ):
                user = broker_user(self.settings.rabbit_url)
                for vhost in self.vhost_names:
                    self.vhosts.ensure(vhost, user)
            self.state.mark_step("nova-vhosts")
        written = self.configs.write()
        self.progress.line(
            f"nova: configuration {', '.join(path.name for path in written)}"
        )

    def destroy_resources(self) -> None:
        """Drop our databases and delete our vhosts (each ``rabbitmqctl``
        call boots an Erlang VM, so the vhosts go in parallel)."""
        with ThreadPoolExecutor(2, thread_name_prefix="destroy") as pool:
            vhosts = () if self.settings.transport_url else self.vhost_names
            deletions = [pool.submit(self.vhosts.delete, vhost) for vhost in vhosts]
            for database in NOVA_DATABASES:
                self.databases.drop(self.database_name(database))
            for deletion in deletions:
                deletion.result()
        for step in ("nova-databases", "nova-vhosts"):
            self.state.forget_step(step)

    # -- setup commands ---------------------------------------------------------

    def setup_context(self) -> SetupContext:
        return SetupContext(
            api_database_url=self.configs.api_database_url,
            cell0_database_url=self.configs.cell0_database_url,
            cell1_database_url=self.configs.cell1_database_url,
            api_transport_url=self.configs.api_transport_url,
            cell1_transport_url=self.configs.cell1_transport_url,
        )

    def setup_argv(self, command: NovaSetupCommand) -> tuple[str, ...]:
        config = self.configs.config_file(api_level=command.role is ConfigRole.API)
        return (
            venv_script(command.console_script),
            "--config-file",
            str(config),
            *command.render_args(self.setup_context()),
        )

    def run_setup_commands(self) -> None:
        for command in self.setup_commands:
            marker = f"nova-setup-{command.name}"
            if self.state.step_done(marker):
                continue
            with self.progress.step(f"nova: {command.name}"):
                run_command(self.setup_argv(command), self.state.log("nova-setup"))
            self.state.mark_step(marker)

    def run_post_start_commands(self) -> None:
        for command in self.post_start_commands:
            with self.progress.step(f"nova: {command.name}"):
                run_command(self.setup_argv(command), self.state.log("nova-setup"))

    # -- daemons ----------------------------------------------------------------

    def _spec(
        self, daemon: NovaDaemon, name: str, configs: tuple[str, ...]
    ) -> ProcessSpec:
        log_file = self.state.log(name)
        argv = [venv_script(daemon.console_script)]
        for config in configs:
            argv += ["--config-file", config]
        argv += ["--log-file", str(log_file), *daemon.extra_args]
        return ProcessSpec(
            name=name,
            argv=tuple(argv),
            cwd=self.state.service("nova"),
            config_files=tuple(Path(config) for config in configs),
            probe=(
                LogLineProbe.from_now(log_file, daemon.ready_log_line)
                if daemon.ready_log_line
                else daemon.probe(self.urls)
            ),
            service_logs=(log_file,),
        )

    def specs(self) -> list[tuple[ConfigRole, ProcessSpec]]:
        """Every daemon process, expanded per compute, in start order."""
        api, cell = str(self.configs.api_conf), str(self.configs.cell1_conf)
        result: list[tuple[ConfigRole, ProcessSpec]] = []
        for daemon in self.daemons:
            if daemon.role is ConfigRole.COMPUTE:
                for index in range(1, self.settings.computes + 1):
                    compute = str(self.configs.compute_conf(index))
                    spec = self._spec(daemon, f"{daemon.name}-{index}", (cell, compute))
                    result.append((daemon.role, spec))
            else:
                configs = (api,) if daemon.role is ConfigRole.API else (cell,)
                result.append((daemon.role, self._spec(daemon, daemon.name, configs)))
        return result

    def processes(self) -> list[SupervisedProcess]:
        return [
            SupervisedProcess(spec, self.state.run, self.state.logs)
            for _, spec in self.specs()
        ]

    def ports(self) -> dict[str, int]:
        return {
            daemon.name: getattr(self.settings.ports, daemon.port)
            for daemon in self.daemons
            if daemon.port
        }

    def start_daemons(self) -> None:
        """Start every daemon not running yet, all at once, and wait until
        all are ready.

        None needs another to be up before it starts: a service retries its
        database and a compute pings its conductor until it answers, so
        starting them together costs the slowest start, not the sum.
        Daemons already running (a resumed deployment) are left alone.
        """
        for daemon in self.left_out:
            self.progress.line(
                f"nova: {daemon.name} not started: {daemon.needs_path} is missing"
            )
        processes = [
            process
            for _, spec in self.specs()
            for process in [SupervisedProcess(spec, self.state.run, self.state.logs)]
            if not process.is_running()
        ]
        if not processes:
            return
        with self.progress.step(
            f"nova: daemons ready ({', '.join(p.name for p in processes)})"
        ):
            for process in processes:
                process.start()
            with ThreadPoolExecutor(len(processes)) as pool:
                list(pool.map(lambda p: p.wait_ready(), processes))

    def stop(self) -> list[str]:
        """Stop the daemons in reverse start order; names of those stopped."""
        return [p.name for p in reversed(self.processes()) if p.stop()]
