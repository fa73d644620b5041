"""Neutron, unmodified from PyPI: ML2/openvswitch with its agents.

Started as an operator would start it:

- the REST API, ``neutron.wsgi.api:application`` under gunicorn (config
  files named by ``OS_NEUTRON_CONFIG_DIR`` / ``OS_NEUTRON_CONFIG_FILES``);
- ``neutron-rpc-server``, which serves the agents' RPC (the WSGI API serves
  none). Agents started before it consumes its topics lose their first
  calls and recover only after about 99 s, so the API and the RPC server
  are ready (its log says its workers started) before any agent starts;
- one ``neutron-openvswitch-agent`` per agent host, on the switch of
  :mod:`nova.launcher.openvswitch` (userspace datapath), each host with its
  own integration bridge and physical bridge, so that a port bound to that
  host name binds with ``vif_type=ovs`` and names the host's bridge;
- the DHCP agent (dnsmasq in a namespace per network) and, when a nova
  metadata API is named (``metadata``), ``neutron-metadata-agent``: the
  DHCP namespace then answers 169.254.169.254 (isolated metadata, there is
  no L3 agent) and the agent signs each request for nova's metadata API
  with the shared secret.

Tenant networks are VLANs of ``physnet1``. The schema comes from
``neutron-db-manage upgrade heads``, which needs MariaDB or PostgreSQL
(it fails on SQLite). Requests are authenticated by Keystone; Neutron
reports port events to nova (``[nova]``) as the ``nova`` service user.
Agents run as root without sudo: ``root_helper = env`` and the
environment's ``bin`` on ``PATH`` (for ``privsep-helper``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from nova.launcher.authtoken import ServiceUser
from nova.launcher.commands import run_command, venv_script
from nova.launcher.errors import CommandFailed
from nova.launcher.files import installed_config, write_file
from nova.launcher.gunicorn import GunicornApp
from nova.launcher.ini import render_ini
from nova.launcher.openvswitch import OpenVSwitch
from nova.launcher.ports import LOOPBACK, require_free
from nova.launcher.probes import (
    HttpProbe,
    LogLineProbe,
    PathProbe,
    QueueConsumersProbe,
    ReadinessProbe,
)
from nova.launcher.process import ProcessSpec, SupervisedProcess
from nova.launcher.progress import Progress
from nova.launcher.service_files import ServiceFiles
from nova.launcher.state import StateDir

PHYSNET = "physnet1"
VLAN_RANGE = (100, 999)
PASTE_NAME = "api-paste.ini"
# The agents' RPC topics the RPC server consumes, and what an OVS agent logs
# once it serves.
RPC_QUEUES = ("q-plugin", "q-reports-plugin")
AGENT_READY_LINE = "Agent initialized successfully, now running"
DHCP_READY_LINE = "DHCP agent started"


@dataclass(frozen=True)
class AgentHost:
    """An OVS agent's host name and its bridges (names fit IFNAMSIZ)."""

    host: str
    integration_bridge: str
    physical_bridge: str
    openflow_port: int


@dataclass(frozen=True)
class NovaMetadata:
    """Where the metadata agent finds nova's metadata API, and the secret
    both sign requests with."""

    host: str
    port: int
    shared_secret: str = field(repr=False)


@dataclass
class Neutron(ServiceFiles):
    """Neutron's files, schema, API, RPC server and OVS agents."""

    state: StateDir
    port: int
    database_url: str
    service_user: ServiceUser
    nova_user: ServiceUser
    transport_url: str
    agent_hosts: tuple[str, ...]
    openflow_ports: tuple[int, ...]
    switch: OpenVSwitch = field(init=False)
    threads: int = 4
    exit_with_pid: int | None = None
    metadata: NovaMetadata | None = None
    name: str = "neutron"

    def __post_init__(self) -> None:
        self.switch = OpenVSwitch(self.state)

    CONFIG_NAME = "neutron.conf"
    PASTE_NAME = PASTE_NAME

    # -- names and paths --------------------------------------------------------

    @property
    def ml2_path(self) -> Path:
        return self.directory / "ml2_conf.ini"

    def agent_path(self, host: str) -> Path:
        return self.directory / f"openvswitch_agent-{host}.ini"

    @property
    def dhcp_agent_path(self) -> Path:
        return self.directory / "dhcp_agent.ini"

    @property
    def dnsmasq_config_path(self) -> Path:
        return self.directory / "dnsmasq.conf"

    @property
    def metadata_agent_path(self) -> Path:
        return self.directory / "metadata_agent.ini"

    @property
    def metadata_socket(self) -> Path:
        """The metadata agent's socket, which the DHCP namespaces' haproxy
        forwards to (Neutron's default under its state path)."""
        return self.directory / "state" / "metadata_proxy"

    @property
    def dhcp_state(self) -> Path:
        """Where the DHCP agent keeps each network's dnsmasq files."""
        return self.directory / "state" / "dhcp"

    def agents(self) -> list[AgentHost]:
        """Each agent host with bridges named after this deployment, so
        two deployments on one machine never share a bridge."""
        tag = hashlib.sha1(str(self.state.root).encode()).hexdigest()[:4]
        many = len(self.agent_hosts) > 1
        return [
            AgentHost(
                host=host,
                integration_bridge=f"br-int{index if many else ''}-{tag}",
                physical_bridge=f"br-ph{index if many else ''}-{tag}",
                openflow_port=self.openflow_ports[index - 1],
            )
            for index, host in enumerate(self.agent_hosts, start=1)
        ]

    def bridges(self) -> tuple[str, ...]:
        return tuple(
            bridge
            for agent in self.agents()
            for bridge in (agent.integration_bridge, agent.physical_bridge)
        )

    # -- configuration ------------------------------------------------------------

    def render_config(self) -> str:
        return render_ini(
            {
                "DEFAULT": {
                    "core_plugin": "ml2",
                    # Routers and floating IPs (their API; no L3 agent runs).
                    "service_plugins": "router",
                    "auth_strategy": "keystone",
                    "transport_url": self.transport_url,
                    "state_path": self.directory / "state",
                    "log_file": self.state.log(f"{self.name}-api"),
                    "api_paste_config": self.paste_path,
                    "debug": False,
                    "rpc_workers": 1,
                    "rpc_state_report_workers": 1,
                    "notify_nova_on_port_status_changes": True,
                    "notify_nova_on_port_data_changes": True,
                },
                "database": {"connection": self.database_url},
                "keystone_authtoken": self.service_user.authtoken_section(),
                "nova": {**self.nova_user.auth_options(), "endpoint_type": "public"},
                "oslo_concurrency": {"lock_path": self.directory / "lock"},
                "agent": {"root_helper": "env", "report_interval": 5},
            },
            header="Neutron configuration generated by nova-local-cloud.",
        )

    def render_ml2(self) -> str:
        low, high = VLAN_RANGE
        return render_ini(
            {
                "ml2": {
                    "type_drivers": "flat,vlan",
                    "tenant_network_types": "vlan",
                    "mechanism_drivers": "openvswitch",
                    "extension_drivers": "port_security",
                },
                "ml2_type_flat": {"flat_networks": "*"},
                "ml2_type_vlan": {"network_vlan_ranges": f"{PHYSNET}:{low}:{high}"},
                "securitygroup": {"firewall_driver": "openvswitch"},
            },
            header="ML2 configuration generated by nova-local-cloud.",
        )

    def render_agent(self, agent: AgentHost) -> str:
        return render_ini(
            {
                "DEFAULT": {"host": agent.host},
                "ovs": {
                    "integration_bridge": agent.integration_bridge,
                    "bridge_mappings": f"{PHYSNET}:{agent.physical_bridge}",
                    "datapath_type": "netdev",
                    "ovsdb_connection": self.switch.connection,
                    "of_listen_address": LOOPBACK,
                    "of_listen_port": agent.openflow_port,
                },
                "agent": {"tunnel_types": None},
                "securitygroup": {"firewall_driver": "openvswitch"},
            },
            header=f"OVS agent of host {agent.host}, generated by nova-local-cloud.",
        )

    def render_dhcp_agent(self) -> str:
        """One DHCP agent, on the first agent host's integration bridge:
        dnsmasq in a ``qdhcp-<network>`` namespace per network."""
        agent = self.agents()[0]
        return render_ini(
            {
                "DEFAULT": {
                    "host": agent.host,
                    "interface_driver": "openvswitch",
                    "enable_isolated_metadata": self.metadata is not None,
                    # Networks here have no router: the DHCP port serves
                    # 169.254.169.254 and its lease routes guests there.
                    "force_metadata": self.metadata is not None,
                    "dnsmasq_config_file": self.dnsmasq_config_path,
                },
                "ovs": {
                    "integration_bridge": agent.integration_bridge,
                    "ovsdb_connection": self.switch.connection,
                },
            },
            header="DHCP agent, generated by nova-local-cloud.",
        )

    def render_metadata_agent(self) -> str:
        assert self.metadata is not None
        return render_ini(
            {
                "DEFAULT": {
                    "nova_metadata_host": self.metadata.host,
                    "nova_metadata_port": self.metadata.port,
                    "metadata_proxy_shared_secret": self.metadata.shared_secret,
                    "metadata_proxy_socket": self.metadata_socket,
                    "metadata_workers": 1,
                },
            },
            header="Metadata agent, generated by nova-local-cloud.",
        )

    def gunicorn(self) -> GunicornApp:
        return GunicornApp(
            name=f"{self.name}-api",
            wsgi_app="neutron.wsgi.api:application",
            host=LOOPBACK,
            port=self.port,
            directory=self.directory,
            access_log=self.state.logs / f"{self.name}-api.access.log",
            environ={
                "OS_NEUTRON_CONFIG_DIR": str(self.directory),
                "OS_NEUTRON_CONFIG_FILES": f"{self.config_path.name};"
                f"{self.ml2_path.name}",
            },
            threads=self.threads,
            exit_with_pid=self.exit_with_pid,
        )

    def write_files(self) -> None:
        for sub in ("state", "lock"):
            (self.directory / sub).mkdir(parents=True, exist_ok=True)
        source = installed_config("neutron", PASTE_NAME)
        if source is None:
            raise FileNotFoundError(
                f"neutron's {PASTE_NAME} not found under {sys.prefix}/etc/neutron"
            )
        shutil.copyfile(source, self.paste_path)
        write_file(self.config_path, self.render_config())
        write_file(self.ml2_path, self.render_ml2())
        for agent in self.agents():
            write_file(self.agent_path(agent.host), self.render_agent(agent))
        write_file(self.dhcp_agent_path, self.render_dhcp_agent())
        # dnsmasq drops to ``nobody`` by default, who cannot read the hosts
        # files under a private state directory (a test's tmp is 0700): it
        # then answers every DISCOVER with "no address available".
        write_file(self.dnsmasq_config_path, "user=root\n")
        if self.metadata is not None:
            write_file(self.metadata_agent_path, self.render_metadata_agent())
        self.gunicorn().write()

    # -- one-time set-up ------------------------------------------------------------

    def setup(self, progress: Progress) -> None:
        """The switch's database, and ``neutron-db-manage upgrade heads``
        once."""
        self.switch.setup(progress)
        marker = f"{self.name}-db-manage"
        if self.state.step_done(marker):
            return
        with progress.step(f"{self.name}: neutron-db-manage upgrade heads done"):
            run_command(
                (
                    venv_script("neutron-db-manage"),
                    "--config-file",
                    str(self.config_path),
                    "--config-file",
                    str(self.ml2_path),
                    "upgrade",
                    "heads",
                ),
                self.state.log(f"{self.name}-setup"),
            )
        self.state.mark_step(marker)

    # -- processes ------------------------------------------------------------

    def agent_environ(self) -> dict[str, str]:
        """Agents find ``privsep-helper`` (and OVS's tools their switch)."""
        bin_dir = str(Path(venv_script("privsep-helper")).parent)
        path = os.environ.get("PATH", "")
        return {
            "PATH": f"{bin_dir}:{path}:/usr/sbin:/sbin",
            **self.switch.environ(),
        }

    def api_spec(self) -> ProcessSpec:
        return self.gunicorn().process_spec(
            probe=HttpProbe(self.url + "/"),
            config_files=(self.config_path, self.ml2_path, self.paste_path),
            service_logs=(self.state.log(f"{self.name}-api"),),
        )

    def _daemon_spec(
        self,
        name: str,
        script: str,
        config_files: tuple[Path, ...],
        probe: ReadinessProbe | None = None,
        ready_line: str = "",
    ) -> ProcessSpec:
        log = self.state.log(name)
        argv: list[str] = [venv_script(script)]
        for path in config_files:
            argv += ["--config-file", str(path)]
        argv += ["--log-file", str(log)]
        return ProcessSpec(
            name=name,
            argv=tuple(argv),
            cwd=self.directory,
            env=self.agent_environ(),
            config_files=config_files,
            probe=probe or LogLineProbe.from_now(log, ready_line),
            ready_timeout=180.0,
            # Their RPC workers may hang on SIGTERM; nothing is lost by a kill.
            stop_timeout=5.0,
            service_logs=(log,),
        )

    def rpc_spec(self) -> ProcessSpec:
        return self._daemon_spec(
            f"{self.name}-rpc-server",
            "neutron-rpc-server",
            (self.config_path, self.ml2_path),
            probe=QueueConsumersProbe(self.transport_url, RPC_QUEUES),
        )

    def agent_spec(self, agent: AgentHost) -> ProcessSpec:
        return self._daemon_spec(
            f"{self.name}-openvswitch-agent-{agent.host}",
            "neutron-openvswitch-agent",
            (self.config_path, self.agent_path(agent.host)),
            ready_line=AGENT_READY_LINE,
        )

    def dhcp_spec(self) -> ProcessSpec:
        return self._daemon_spec(
            f"{self.name}-dhcp-agent",
            "neutron-dhcp-agent",
            (self.config_path, self.dhcp_agent_path),
            ready_line=DHCP_READY_LINE,
        )

    def metadata_spec(self) -> ProcessSpec:
        return self._daemon_spec(
            f"{self.name}-metadata-agent",
            "neutron-metadata-agent",
            (self.config_path, self.metadata_agent_path),
            probe=PathProbe(self.metadata_socket),
        )

    def process_specs(self) -> list[ProcessSpec]:
        """In start order: the switch, the API, the RPC server, the OVS
        agents, the metadata agent (if any), the DHCP agent."""
        return [
            *self.switch.process_specs(),
            self.api_spec(),
            self.rpc_spec(),
            *(self.agent_spec(agent) for agent in self.agents()),
            *([self.metadata_spec()] if self.metadata is not None else []),
            self.dhcp_spec(),
        ]

    def processes(self) -> list[SupervisedProcess]:
        return [
            SupervisedProcess(spec, self.state.run, self.state.logs)
            for spec in self.process_specs()
        ]

    def start(self, progress: Progress) -> None:
        """Start whatever is not running yet, in order, each ready before
        the next; on failure stop everything again and raise."""
        self.state.create()
        self.write_files()
        processes = self.processes()
        if not any(p.is_running() for p in processes if p.name == f"{self.name}-api"):
            # Else the readiness probe could take another server for ours.
            require_free({f"{self.name}-api": self.port})
        try:
            self.setup(progress)
            for process in processes:
                if process.is_running():
                    continue
                process.start()
                waited = process.wait_ready()
                progress.line(f"{process.name}: ready ({waited:.1f} s)")
                if process.name == "ovs-vswitchd":
                    self.switch.configure(self.bridges())
        except BaseException:
            self.stop()
            raise

    def stop(self) -> list[str]:
        """Stop every process (reverse order); names of those stopped.

        The bridges are deleted before the switch stops: on the userspace
        datapath each one is a kernel tap device that would outlive it.
        """
        stopped = []
        for process in reversed(self.processes()):
            if process.name == "ovs-vswitchd" and process.is_running():
                self._delete_bridges()
            if process.stop():
                stopped.append(process.name)
            if process.name == f"{self.name}-dhcp-agent":
                self._stop_dnsmasqs()
                self._stop_external_processes()
        return stopped

    def _stop_dnsmasqs(self) -> None:
        """dnsmasq detaches from the DHCP agent: stop each by the pid file
        Neutron keeps per network, and drop the network's namespace."""
        if not self.dhcp_state.is_dir():
            return
        for network in self.dhcp_state.iterdir():
            pid_file = network / "pid"
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
            subprocess.run(
                ["ip", "netns", "delete", f"qdhcp-{network.name}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
            )

    def _stop_external_processes(self) -> None:
        """The DHCP namespaces' haproxy (isolated metadata) detaches too:
        stop each by the pid file Neutron keeps for it."""
        pids = self.directory / "state" / "external" / "pids"
        if not pids.is_dir():
            return
        for pid_file in pids.iterdir():
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass

    def _delete_bridges(self) -> None:
        args: list[str] = ["--timeout=10"]
        for bridge in self.bridges():
            args += ["--", "--if-exists", "del-br", bridge]
        try:
            self.switch.vsctl(*args)
        except CommandFailed:
            # A switch that cannot answer is stopped anyway.
            pass
