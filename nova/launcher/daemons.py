"""Our own daemons and one-time commands, declared for the launcher to run.

The launcher runs exactly what :data:`NOVA_SETUP_COMMANDS` and
:data:`NOVA_DAEMONS` declare, in order. Both are empty until the programs
exist; making one part of every deployment is one entry, for example::

    NOVA_SETUP_COMMANDS = (
        NovaSetupCommand("api-db-sync", "nova-manage", ConfigRole.API,
                         ("api_db", "sync")),
        NovaSetupCommand("map-cell0", "nova-manage", ConfigRole.API,
                         ("cell_v2", "map_cell0")),
        NovaSetupCommand("create-cell1", "nova-manage", ConfigRole.API,
                         ("cell_v2", "create_cell", "--name", "cell1",
                          "--transport-url", "{cell1_transport_url}",
                          "--database_connection", "{cell1_database_url}")),
        NovaSetupCommand("cell-db-sync", "nova-manage", ConfigRole.API,
                         ("db", "sync")),
    )

    NOVA_DAEMONS = (
        NovaDaemon("nova-api", "nova-api", ConfigRole.API,
                   probe=lambda urls: HttpProbe(urls.compute_root),
                   port="nova_api"),
        NovaDaemon("nova-scheduler", "nova-scheduler", ConfigRole.API),
        NovaDaemon("nova-conductor", "nova-conductor", ConfigRole.API),
        NovaDaemon("nova-cell1-conductor", "nova-conductor", ConfigRole.CELL),
        NovaDaemon("nova-compute", "nova-compute", ConfigRole.COMPUTE),
    )

A daemon's role picks its configuration files (see
:mod:`nova.launcher.nova_config`): ``API`` gets ``nova.conf``; ``CELL`` gets
``nova-cell1.conf``; ``COMPUTE`` is run once per compute host with
``nova-cell1.conf`` then ``nova-compute-<n>.conf`` and is named
``<name>-<n>``. Every daemon also gets ``--log-file <state>/logs/<name>.log``.
Setup commands run once each (a marker in the state directory remembers),
with the role's configuration file, before any daemon starts; ``{…}``
placeholders in their arguments are filled from :class:`SetupContext`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from nova.launcher.probes import AliveProbe, ReadinessProbe


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
    alive for a few seconds). ``port`` names the field of
    :class:`~nova.launcher.settings.Ports` the daemon binds, so a taken port
    is reported before anything starts.
    """

    name: str
    console_script: str
    role: ConfigRole
    probe: Callable[[NovaUrls], ReadinessProbe] = _alive
    port: str | None = None
    extra_args: tuple[str, ...] = field(default=())


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


NOVA_SETUP_COMMANDS: tuple[NovaSetupCommand, ...] = ()
"""One-time commands run before the daemons, in order."""

NOVA_DAEMONS: tuple[NovaDaemon, ...] = ()
"""Our daemons in start order (API-level, then cell, then computes)."""
