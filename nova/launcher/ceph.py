"""A one-node Ceph cluster (Debian's Ceph 16) for Cinder's RBD driver.

Cinder's volumes need a backend that gives a QEMU guest real block I/O on
a machine without device-mapper (so no LVM). RBD does: QEMU opens the
image through librbd (``qemu-block-extra``), no kernel initiator, no
target daemon, and it is the backend most production clouds run under
Cinder. The cluster is one monitor, one OSD whose BlueStore lives in a
sparse file of the state directory, and one manager, all on loopback:

- ``ceph-mon`` on ``[v2:127.0.0.1:<port>]`` (msgr2 only, cephx off: the
  cluster never leaves loopback);
- ``ceph-osd`` created once (``ceph osd new`` + ``ceph-osd --mkfs``), the
  pools sized 1;
- ``ceph-mgr``, which only reports (I/O works without it).

Each daemon runs in the foreground (``-f``) under the launcher's
supervisor, like every other service; one-time steps leave markers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

from nova.launcher.commands import run_command
from nova.launcher.files import write_file
from nova.launcher.ini import render_ini
from nova.launcher.ports import LOOPBACK
from nova.launcher.probes import AliveProbe
from nova.launcher.process import ProcessSpec, SupervisedProcess
from nova.launcher.progress import Progress
from nova.launcher.state import StateDir

TOOLS = ("ceph-mon", "ceph-osd", "ceph-mgr", "ceph", "monmaptool", "rbd")
MON_ID = "a"
MGR_ID = "x"
OSD_ID = "0"
# The OSD's BlueStore file: sparse, so only what is written takes space.
OSD_BYTES = 8 * 1024**3
COMMAND_TIMEOUT = 60.0


def missing_tools() -> list[str]:
    """Ceph programs not on ``PATH`` (``apt-get install ceph-mon ceph-osd
    ceph-mgr``)."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


@dataclass(frozen=True)
class CephProbe:
    """Ready when a ``ceph`` command answers and its JSON says so."""

    config_path: Path
    what: str  # "mon" (the monitor answers) or "osd" (one OSD is up)

    def describe(self) -> str:
        return f"ceph {self.what} up"

    def check(self, age: float) -> bool:
        args = ["mon", "stat"] if self.what == "mon" else ["osd", "stat"]
        try:
            done = subprocess.run(
                ["ceph", "-c", str(self.config_path), "--connect-timeout", "3"]
                + args
                + ["-f", "json"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return False
        if done.returncode != 0:
            return False
        if self.what == "mon":
            return True
        try:
            return json.loads(done.stdout).get("num_up_osds", 0) >= 1
        except ValueError:
            return False


@dataclass
class Ceph:
    """The cluster's configuration, one-time set-up and daemons."""

    state: StateDir
    mon_port: int
    pools: tuple[str, ...] = ("volumes",)
    name: str = "ceph"

    @property
    def directory(self) -> Path:
        return self.state.service(self.name)

    @property
    def config_path(self) -> Path:
        return self.directory / "ceph.conf"

    @property
    def fsid_path(self) -> Path:
        return self.directory / "fsid"

    @property
    def mon_address(self) -> str:
        return f"v2:{LOOPBACK}:{self.mon_port}"

    def fsid(self) -> str:
        if not self.fsid_path.exists():
            write_file(self.fsid_path, str(uuid.uuid4()) + "\n", mode=0o644)
        return self.fsid_path.read_text().strip()

    def render_config(self) -> str:
        root = self.directory
        sockets = {"admin socket": f"{root}/run/$cluster-$name.asok"}
        return render_ini(
            {
                "global": {
                    "fsid": self.fsid(),
                    "mon host": self.mon_address,
                    "auth cluster required": "none",
                    "auth service required": "none",
                    "auth client required": "none",
                    "auth allow insecure global id reclaim": False,
                    "public addr": LOOPBACK,
                    "ms bind ipv6": False,
                    "osd pool default size": 1,
                    "osd pool default min size": 1,
                    "osd crush chooseleaf type": 0,
                    "mon allow pool size one": True,
                    "mon allow pool delete": True,
                    "mon warn on pool no redundancy": False,
                    # The monitor's store shares the machine's disk.
                    "mon data avail warn": 1,
                    "mon data avail crit": 0,
                    "run dir": f"{root}/run",
                    "log file": f"{self.state.logs}/{self.name}-$name.log",
                    "mon data": f"{root}/mon/$name",
                    "osd data": f"{root}/osd/$name",
                    "mgr data": f"{root}/mgr/$name",
                    "osd objectstore": "bluestore",
                    "bluestore block path": f"{root}/osd/$name/block.file",
                    "bluestore block create": True,
                    "bluestore block size": OSD_BYTES,
                    "bluestore cache autotune": False,
                    "bluestore cache size": 64 * 1024**2,
                    "osd memory target": 939524096,
                },
                "mon": sockets,
                "osd": sockets,
                "mgr": sockets,
            },
            header="One-node Ceph generated by nova-local-cloud.",
        )

    def write_files(self) -> None:
        for sub in ("run", f"mon/mon.{MON_ID}", f"osd/osd.{OSD_ID}", "mgr"):
            (self.directory / sub).mkdir(parents=True, exist_ok=True)
        (self.directory / "mgr" / f"mgr.{MGR_ID}").mkdir(exist_ok=True)
        write_file(self.config_path, self.render_config(), mode=0o644)

    def ceph(self, *args: str) -> str:
        """Run ``ceph -c <conf> args``; its stdout."""
        return self._tool("ceph", *args)

    def _tool(self, tool: str, *args: str) -> str:
        done = subprocess.run(
            [tool, "-c", str(self.config_path), *args],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            from nova.launcher.errors import CommandFailed

            raise CommandFailed(
                f"{tool} {' '.join(args)} exited {done.returncode}: "
                f"{done.stderr.strip()[-500:]}"
            )
        return done.stdout

    # -- one-time set-up ----------------------------------------------------------

    def _mkfs_mon(self, progress: Progress) -> None:
        marker = f"{self.name}-mon-mkfs"
        if self.state.step_done(marker):
            return
        log = self.state.log(f"{self.name}-setup")
        monmap = self.directory / "monmap"
        with progress.step(f"{self.name}: monitor store created"):
            run_command(
                (
                    "monmaptool",
                    "--create",
                    "--clobber",
                    "--addv",
                    MON_ID,
                    f"[{self.mon_address}]",
                    "--fsid",
                    self.fsid(),
                    str(monmap),
                ),
                log,
            )
            run_command(
                (
                    "ceph-mon",
                    "-c",
                    str(self.config_path),
                    "--mkfs",
                    "-i",
                    MON_ID,
                    "--monmap",
                    str(monmap),
                ),
                log,
            )
        self.state.mark_step(marker)

    def _mkfs_osd(self, progress: Progress) -> None:
        marker = f"{self.name}-osd-mkfs"
        if self.state.step_done(marker):
            return
        osd_uuid = str(uuid.uuid4())
        with progress.step(f"{self.name}: OSD {OSD_ID} created on a BlueStore file"):
            osd_id = self.ceph("osd", "new", osd_uuid).strip()
            if osd_id != OSD_ID:
                raise RuntimeError(f"ceph osd new gave id {osd_id}, not {OSD_ID}")
            run_command(
                (
                    "ceph-osd",
                    "-c",
                    str(self.config_path),
                    "-i",
                    OSD_ID,
                    "--mkfs",
                    "--osd-uuid",
                    osd_uuid,
                ),
                self.state.log(f"{self.name}-setup"),
            )
        self.state.mark_step(marker)

    def _create_pools(self, progress: Progress) -> None:
        marker = f"{self.name}-pools"
        if self.state.step_done(marker):
            return
        with progress.step(f"{self.name}: pools {', '.join(self.pools)} ready"):
            for pool in self.pools:
                self.ceph("osd", "pool", "create", pool, "8")
                self._tool("rbd", "pool", "init", pool)
        self.state.mark_step(marker)

    # -- processes ------------------------------------------------------------

    def _spec(self, daemon: str, ident: str, probe) -> ProcessSpec:
        return ProcessSpec(
            name=f"{self.name}-{daemon}",
            argv=(f"ceph-{daemon}", "-c", str(self.config_path), "-i", ident, "-f"),
            cwd=self.directory,
            config_files=(self.config_path,),
            probe=probe,
            ready_timeout=120.0,
            service_logs=(self.state.log(f"{self.name}-{daemon}.{ident}"),),
        )

    def process_specs(self) -> list[ProcessSpec]:
        """In start order: monitor, OSD, manager."""
        return [
            self._spec("mon", MON_ID, CephProbe(self.config_path, "mon")),
            self._spec("osd", OSD_ID, CephProbe(self.config_path, "osd")),
            self._spec("mgr", MGR_ID, AliveProbe()),
        ]

    def processes(self) -> list[SupervisedProcess]:
        return [
            SupervisedProcess(spec, self.state.run, self.state.logs)
            for spec in self.process_specs()
        ]

    def start(self, progress: Progress) -> None:
        """Create what is missing and start what is not running, each
        daemon ready before the next; on failure stop all and raise."""
        self.state.create()
        self.write_files()
        mon, osd, mgr = self.processes()
        try:
            self._mkfs_mon(progress)
            self._launch(mon, progress)
            self._mkfs_osd(progress)
            self._launch(osd, progress)
            self._launch(mgr, progress)
            self._create_pools(progress)
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _launch(process: SupervisedProcess, progress: Progress) -> None:
        if process.is_running():
            return
        process.start()
        waited = process.wait_ready()
        progress.line(f"{process.name}: ready ({waited:.1f} s)")

    def stop(self) -> list[str]:
        stopped = []
        for process in reversed(self.processes()):
            if process.stop():
                stopped.append(process.name)
        return stopped
