"""Open vSwitch on its userspace datapath, started by hand for Neutron's agents.

Machines without the openvswitch kernel module (containers, CI) still run
OVS: ``ovs-vswitchd`` forwards in userspace when every bridge has
``datapath_type=netdev``. The two daemons run in the foreground under our
supervisor (no ``--detach``, no systemd), each deployment with its own
database, sockets and run directory, so several deployments on one machine
do not share a switch. Tools find the switch through ``OVS_RUNDIR``
(:meth:`OpenVSwitch.environ`), which ``ovs-vsctl`` and Neutron's agents
read.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from nova.launcher.commands import run_command
from nova.launcher.probes import PathProbe
from nova.launcher.process import ProcessSpec
from nova.launcher.progress import Progress
from nova.launcher.state import StateDir

SCHEMA = Path("/usr/share/openvswitch/vswitch.ovsschema")
DATAPATH_TYPE = "netdev"
TOOLS = ("ovsdb-tool", "ovsdb-server", "ovs-vswitchd", "ovs-vsctl")


def missing_tools() -> list[str]:
    """The Open vSwitch commands not found here (``apt-get install
    openvswitch-switch`` provides them)."""
    return [tool for tool in TOOLS if _which(tool) is None]


def _which(tool: str) -> str | None:
    return shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/usr/bin")


@dataclass
class OpenVSwitch:
    """One switch: ``ovsdb-server`` and ``ovs-vswitchd`` in a state directory."""

    state: StateDir
    name: str = "openvswitch"

    @property
    def directory(self) -> Path:
        return self.state.service(self.name)

    @property
    def database_path(self) -> Path:
        return self.directory / "conf.db"

    @property
    def socket(self) -> Path:
        # The default name under OVS_RUNDIR: ovs-vsctl finds it by itself.
        return self.directory / "db.sock"

    @property
    def connection(self) -> str:
        """The OVSDB address, as ``[ovs] ovsdb_connection`` takes it."""
        return f"unix:{self.socket}"

    def environ(self) -> dict[str, str]:
        """Environment under which OVS tools reach this switch."""
        return {"OVS_RUNDIR": str(self.directory), "OVS_DBDIR": str(self.directory)}

    def setup(self, progress: Progress) -> None:
        """Create the switch database, once."""
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.database_path.exists():
            return
        with progress.step("openvswitch: database created"):
            run_command(
                (
                    _which("ovsdb-tool") or "ovsdb-tool",
                    "create",
                    str(self.database_path),
                    str(SCHEMA),
                ),
                self.state.log(f"{self.name}-setup"),
            )

    def process_specs(self) -> list[ProcessSpec]:
        """``ovsdb-server`` then ``ovs-vswitchd``, both in the foreground."""
        logs = self.state.logs
        ovsdb = ProcessSpec(
            name="ovsdb-server",
            argv=(
                _which("ovsdb-server") or "ovsdb-server",
                str(self.database_path),
                f"--remote=punix:{self.socket}",
                "--remote=db:Open_vSwitch,Open_vSwitch,manager_options",
                f"--pidfile={self.directory / 'ovsdb-server.pid'}",
                f"--unixctl={self.directory / 'ovsdb-server.ctl'}",
                f"--log-file={logs / 'ovsdb-server.log'}",
            ),
            cwd=self.directory,
            env=self.environ(),
            config_files=(self.database_path,),
            probe=PathProbe(self.socket),
            ready_timeout=30.0,
        )
        vswitchd = ProcessSpec(
            name="ovs-vswitchd",
            argv=(
                _which("ovs-vswitchd") or "ovs-vswitchd",
                self.connection,
                f"--pidfile={self.directory / 'ovs-vswitchd.pid'}",
                f"--unixctl={self.directory / 'ovs-vswitchd.ctl'}",
                f"--log-file={logs / 'ovs-vswitchd.log'}",
            ),
            cwd=self.directory,
            env=self.environ(),
            probe=PathProbe(self.directory / "ovs-vswitchd.ctl"),
            ready_timeout=30.0,
        )
        return [ovsdb, vswitchd]

    def vsctl(self, *args: str, progress_log: Path | None = None) -> None:
        """Run ``ovs-vsctl`` against this switch."""
        run_command(
            (_which("ovs-vsctl") or "ovs-vsctl", f"--db={self.connection}", *args),
            progress_log or self.state.log(f"{self.name}-setup"),
            env=self.environ(),
            timeout=60.0,
        )

    def configure(self, bridges: tuple[str, ...]) -> None:
        """Initialise the database and add ``bridges`` on the userspace
        datapath (idempotent).

        Userspace TSO keeps guest TCP working on taps (QEMU's vnet headers);
        without it only DHCP and ping get through.
        """
        args: list[str] = [
            "--",
            "set",
            "Open_vSwitch",
            ".",
            "other_config:userspace-tso-enable=true",
        ]
        for bridge in bridges:
            args += [
                "--",
                "--may-exist",
                "add-br",
                bridge,
                "--",
                "set",
                "Bridge",
                bridge,
                f"datapath_type={DATAPATH_TYPE}",
            ]
        self.vsctl("--timeout=30", *args)
