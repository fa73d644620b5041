"""Our own daemons and one-time commands, declared for the launcher to run.

The launcher runs exactly what this module declares, in order:

* :data:`NOVA_SETUP_COMMANDS` once each (a marker in the state directory
  remembers), before any daemon starts (while Keystone, Placement and Glance
  start): the databases' schemas and the cell mappings, as an operator would
  run ``nova-manage``;
* :data:`NOVA_DAEMONS`, all at once: the API-level services (nova-api,
  nova-metadata-api, nova-scheduler, the superconductor), cell1's conductor,
  its nova-novncproxy (only where noVNC is installed), its nova-serialproxy
  and one nova-compute
  per compute host (each waits for what it needs by itself); ``start`` goes
  on once every one is ready;
* :data:`NOVA_POST_START_COMMANDS` on every start, once every daemon is
  ready: ``nova-manage cell_v2 discover_hosts`` maps the compute hosts that
  just registered, so the cloud can boot servers as soon as ``start``
  returns (the scheduler's periodic discovery would get there within
  ``[scheduler] discover_hosts_in_cells_interval`` seconds anyway).

A daemon's role picks its configuration files (see
:mod:`nova.launcher.nova_config`), as the deployment contract lays out:
``API`` gets ``nova.conf`` (``[api_database]``, ``[database]`` → cell0, the
API-level vhost) — with it nova-conductor is the superconductor; ``CELL``
gets ``nova-cell1.conf`` (``[database]`` → cell1, cell1's vhost) — with it
nova-conductor is cell1's conductor; ``COMPUTE`` is run once per compute host
with ``nova-cell1.conf`` then ``nova-compute-<n>.conf`` and is named
``<name>-<n>``. Every daemon also gets ``--log-file <state>/logs/<name>.log``.
``{…}`` placeholders in a command's arguments are filled from
:class:`SetupContext`.

Readiness: nova-api, nova-metadata-api, nova-novncproxy and
nova-serialproxy when their root URL answers (the serial proxy's with its
terminal page); the RPC daemons when their
log says they consume their topic (:data:`RPC_READY_LINE`, written by
:mod:`nova.service` after the service record exists and, for a compute, its
compute node and resource provider).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from nova.launcher.probes import AliveProbe, HttpProbe, ReadinessProbe


class ConfigRole(enum.Enum):
    """Which configuration files a daemon or command reads."""

    API = "api"
    CELL = "cell"
    COMPUTE = "compute"


@dataclass(frozen=True)
class NovaUrls:
    """Where our HTTP services listen, for readiness probes."""

    compute_root: str
    compute_api: str
    metadata_root: str
    novncproxy_root: str
    serialproxy_root: str


@dataclass(frozen=True)
class SetupContext:
    """Values a setup command's argument templates may name."""

    api_database_url: str
    cell0_database_url: str
    cell1_database_url: str
    api_transport_url: str
    cell1_transport_url: str


def _alive(_urls: NovaUrls) -> ReadinessProbe:
    return AliveProbe()


@dataclass(frozen=True)
class NovaDaemon:
    """One of our long-running programs, as the launcher should run it.

    ``probe`` builds the readiness probe from the deployment's URLs (default:
    alive for a few seconds; see also ``ready_log_line``). ``port`` names the field of
    :class:`~nova.launcher.settings.Ports` the daemon binds, so a taken port
    is reported before anything starts.
    """

    name: str
    console_script: str
    role: ConfigRole
    probe: Callable[[NovaUrls], ReadinessProbe] = _alive
    port: str | None = None
    extra_args: tuple[str, ...] = field(default=())
    ready_log_line: str | None = None
    """If set, the daemon is ready once its ``--log-file`` shows this text
    (written after it started); ``probe`` is then not used."""
    needs_path: str | None = None
    """If set, the daemon is started only when this path exists on the
    host (files of a distribution package it serves)."""


@dataclass(frozen=True)
class NovaSetupCommand:
    """A one-time command such as ``nova-manage api_db sync``."""

    name: str
    console_script: str
    role: ConfigRole
    args: tuple[str, ...]

    def render_args(self, context: SetupContext) -> tuple[str, ...]:
        values = vars(context)
        return tuple(arg.format(**values) for arg in self.args)


def _compute_api(urls: NovaUrls) -> ReadinessProbe:
    return HttpProbe(urls.compute_api)


def _metadata_api(urls: NovaUrls) -> ReadinessProbe:
    return HttpProbe(urls.metadata_root)


def _novncproxy(urls: NovaUrls) -> ReadinessProbe:
    return HttpProbe(urls.novncproxy_root)


def _serialproxy(urls: NovaUrls) -> ReadinessProbe:
    return HttpProbe(urls.serialproxy_root)


NOVNC_WEB = "/usr/share/novnc"
"""Where Debian's novnc package puts the web client nova-novncproxy serves
(upstream's ``[DEFAULT] web`` default)."""


RPC_READY_LINE = "consuming topic"
"""What :mod:`nova.service` logs once a daemon serves its RPC topic."""

NOVA_SETUP_COMMANDS: tuple[NovaSetupCommand, ...] = (
    NovaSetupCommand("api-db-sync", "nova-manage", ConfigRole.API, ("api_db", "sync")),
    # Without --database_connection upstream derives cell0's URL from
    # [database] by appending "_cell0"; ours already names cell0.
    NovaSetupCommand(
        "map-cell0",
        "nova-manage",
        ConfigRole.API,
        ("cell_v2", "map_cell0", "--database_connection", "{cell0_database_url}"),
    ),
    NovaSetupCommand(
        "create-cell1",
        "nova-manage",
        ConfigRole.API,
        (
            "cell_v2",
            "create_cell",
            "--name",
            "cell1",
            "--transport-url",
            "{cell1_transport_url}",
            "--database_connection",
            "{cell1_database_url}",
        ),
    ),
    # Without --local_cell: cell0, then every mapped cell (cell1).
    NovaSetupCommand("cell-db-sync", "nova-manage", ConfigRole.API, ("db", "sync")),
)
"""One-time commands run before the daemons, in order."""

NOVA_DAEMONS: tuple[NovaDaemon, ...] = (
    NovaDaemon("nova-api", "nova-api", ConfigRole.API, _compute_api, "nova_api"),
    NovaDaemon(
        "nova-metadata-api",
        "nova-metadata-api",
        ConfigRole.API,
        _metadata_api,
        "nova_metadata",
    ),
    NovaDaemon(
        "nova-scheduler",
        "nova-scheduler",
        ConfigRole.API,
        ready_log_line=RPC_READY_LINE,
    ),
    # With [api_database] set: the superconductor.
    NovaDaemon(
        "nova-conductor",
        "nova-conductor",
        ConfigRole.API,
        ready_log_line=RPC_READY_LINE,
    ),
    NovaDaemon(
        "nova-cell1-conductor",
        "nova-conductor",
        ConfigRole.CELL,
        ready_log_line=RPC_READY_LINE,
    ),
    # The console tokens it checks live in the cell database.
    NovaDaemon(
        "nova-novncproxy",
        "nova-novncproxy",
        ConfigRole.CELL,
        _novncproxy,
        "nova_novncproxy",
        needs_path=NOVNC_WEB,
    ),
    NovaDaemon(
        "nova-serialproxy",
        "nova-serialproxy",
        ConfigRole.CELL,
        _serialproxy,
        "nova_serialproxy",
    ),
    NovaDaemon(
        "nova-compute",
        "nova-compute",
        ConfigRole.COMPUTE,
        ready_log_line=RPC_READY_LINE,
    ),
)
"""Our daemons in start order (API-level, then cell, then computes)."""

NOVA_POST_START_COMMANDS: tuple[NovaSetupCommand, ...] = (
    NovaSetupCommand(
        "discover-hosts", "nova-manage", ConfigRole.API, ("cell_v2", "discover_hosts")
    ),
)
"""Commands run on every start once every daemon is ready, in order."""
