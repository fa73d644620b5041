"""Cinder, unmodified from PyPI, on a one-node Ceph (RBD).

Started as an operator would start it:

- the REST API, ``cinder.wsgi.api:application`` under gunicorn. Cinder
  parses ``sys.argv`` with oslo.config and has no config-directory
  variable, so the generated ``cinder.conf`` sits in the service directory
  and gunicorn's environment sets ``HOME`` there: oslo.config looks for
  ``~/cinder.conf`` (``/etc/cinder/cinder.conf``, if a machine has one,
  would be read after it);
- ``cinder-scheduler`` and ``cinder-volume`` with ``--config-file``;
  cinder-volume's RBD driver imports Debian's ``rados`` and ``rbd`` modules
  (python3-rados, python3-rbd), put on its ``PYTHONPATH`` alone, without
  the rest of the system's packages;
- the backend, :class:`nova.launcher.ceph.Ceph`, started first.

The schema comes from ``cinder-manage db sync`` (MariaDB or PostgreSQL);
requests are authenticated by Keystone.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from nova.launcher.authtoken import ServiceUser
from nova.launcher.ceph import Ceph
from nova.launcher.commands import run_command, venv_script
from nova.launcher.files import installed_config, write_file
from nova.launcher.gunicorn import GunicornApp
from nova.launcher.ini import render_ini
from nova.launcher.ports import LOOPBACK, require_free
from nova.launcher.probes import HttpProbe, QueueConsumersProbe
from nova.launcher.process import ProcessSpec, SupervisedProcess
from nova.launcher.progress import Progress
from nova.launcher.state import StateDir

PASTE_NAME = "api-paste.ini"
BACKEND = "ceph"
POOL = "volumes"
# Where Debian installs the Ceph bindings cinder-volume's RBD driver needs.
SYSTEM_BINDINGS = Path("/usr/lib/python3/dist-packages")
BINDINGS = ("rados", "rbd")


def missing_bindings() -> list[str]:
    """Ceph's Python modules not installed for this interpreter's ABI
    (``apt-get install python3-rados python3-rbd``)."""
    return [name for name in BINDINGS if _binding(name) is None]


def _binding(name: str) -> Path | None:
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    found = sorted(SYSTEM_BINDINGS.glob(f"{name}.{tag}*.so"))
    return found[0] if found else None


@dataclass
class Cinder:
    """Cinder's files, schema, API, scheduler and volume service."""

    state: StateDir
    port: int
    ceph_mon_port: int
    database_url: str
    service_user: ServiceUser
    transport_url: str
    glance_url: str | None = None
    availability_zone: str = "nova"
    threads: int = 4
    exit_with_pid: int | None = None
    name: str = "cinder"
    ceph: Ceph = field(init=False)

    def __post_init__(self) -> None:
        self.ceph = Ceph(self.state, self.ceph_mon_port, pools=(POOL,))

    @property
    def directory(self) -> Path:
        return self.state.service(self.name)

    @property
    def config_path(self) -> Path:
        return self.directory / "cinder.conf"

    @property
    def paste_path(self) -> Path:
        return self.directory / PASTE_NAME

    @property
    def bindings_dir(self) -> Path:
        return self.directory / "ceph-bindings"

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def volume_url(self) -> str:
        """The ``volumev3`` catalog URL (project-less, as Cinder allows
        since 3.67)."""
        return f"{self.url}/v3"

    @property
    def volume_host(self) -> str:
        """``host@backend``, the volume service's name."""
        return f"{self.name}-volume@{BACKEND}"

    def render_config(self) -> str:
        return render_ini(
            {
                "DEFAULT": {
                    "transport_url": self.transport_url,
                    "auth_strategy": "keystone",
                    "enabled_backends": BACKEND,
                    "host": f"{self.name}-volume",
                    "my_ip": LOOPBACK,
                    "state_path": self.directory / "state",
                    "log_file": self.state.log(f"{self.name}-api"),
                    "api_paste_config": self.paste_path,
                    "debug": False,
                    "storage_availability_zone": self.availability_zone,
                    "default_availability_zone": self.availability_zone,
                    "glance_api_servers": self.glance_url,
                    # The scheduler takes requests once the volume service
                    # reported its pool, not after a fixed minute.
                    "scheduler_driver_init_wait_time": 5,
                    "report_interval": 5,
                    "periodic_interval": 10,
                },
                "database": {"connection": self.database_url},
                "keystone_authtoken": self.service_user.authtoken_section(),
                "nova": {**self.service_user.auth_options(), "interface": "public"},
                "oslo_concurrency": {"lock_path": self.directory / "lock"},
                "coordination": {
                    "backend_url": f"file://{self.directory / 'coordination'}"
                },
                BACKEND: {
                    "volume_driver": "cinder.volume.drivers.rbd.RBDDriver",
                    "volume_backend_name": BACKEND,
                    "rbd_pool": POOL,
                    "rbd_ceph_conf": self.ceph.config_path,
                    "rbd_user": "admin",
                    "rbd_flatten_volume_from_snapshot": False,
                    "rados_connect_timeout": 10,
                },
            },
            header="Cinder configuration generated by nova-local-cloud.",
        )

    def gunicorn(self) -> GunicornApp:
        return GunicornApp(
            name=f"{self.name}-api",
            wsgi_app="cinder.wsgi.api:application",
            host=LOOPBACK,
            port=self.port,
            directory=self.directory,
            access_log=self.state.logs / f"{self.name}-api.access.log",
            environ={"HOME": str(self.directory)},
            threads=self.threads,
            exit_with_pid=self.exit_with_pid,
        )

    def write_files(self) -> None:
        for sub in ("state", "lock", "coordination"):
            (self.directory / sub).mkdir(parents=True, exist_ok=True)
        source = installed_config("cinder", PASTE_NAME)
        if source is None:
            raise FileNotFoundError(
                f"cinder's {PASTE_NAME} not found under {sys.prefix}/etc/cinder"
            )
        shutil.copyfile(source, self.paste_path)
        write_file(self.config_path, self.render_config())
        self.bindings_dir.mkdir(exist_ok=True)
        for name in BINDINGS:
            found = _binding(name)
            if found is None:
                raise FileNotFoundError(
                    f"Ceph's {name} module for Python "
                    f"{sys.version_info.major}.{sys.version_info.minor} is not "
                    f"under {SYSTEM_BINDINGS} (apt-get install python3-{name})"
                )
            link = self.bindings_dir / found.name
            link.unlink(missing_ok=True)
            link.symlink_to(found)
        self.gunicorn().write()

    def setup(self, progress: Progress) -> None:
        """``cinder-manage db sync``, once."""
        marker = f"{self.name}-db-sync"
        if self.state.step_done(marker):
            return
        with progress.step(f"{self.name}: cinder-manage db sync done"):
            run_command(
                (
                    venv_script("cinder-manage"),
                    "--config-file",
                    str(self.config_path),
                    "db",
                    "sync",
                ),
                self.state.log(f"{self.name}-setup"),
            )
        self.state.mark_step(marker)

    # -- processes ------------------------------------------------------------

    def api_spec(self) -> ProcessSpec:
        return self.gunicorn().process_spec(
            probe=HttpProbe(self.url + "/"),
            config_files=(self.config_path, self.paste_path),
            service_logs=(self.state.log(f"{self.name}-api"),),
        )

    def _daemon_spec(self, binary: str, env: dict[str, str]) -> ProcessSpec:
        log = self.state.log(binary)
        return ProcessSpec(
            name=binary,
            argv=(
                venv_script(binary),
                "--config-file",
                str(self.config_path),
                "--log-file",
                str(log),
            ),
            cwd=self.directory,
            env=env,
            config_files=(self.config_path,),
            probe=QueueConsumersProbe(self.transport_url, (binary,)),
            ready_timeout=180.0,
            stop_timeout=10.0,
            service_logs=(log,),
        )

    def process_specs(self) -> list[ProcessSpec]:
        """In start order: the API, the scheduler, the volume service."""
        return [
            self.api_spec(),
            self._daemon_spec(f"{self.name}-scheduler", {}),
            self._daemon_spec(
                f"{self.name}-volume", {"PYTHONPATH": str(self.bindings_dir)}
            ),
        ]

    def processes(self) -> list[SupervisedProcess]:
        return [
            SupervisedProcess(spec, self.state.run, self.state.logs)
            for spec in self.process_specs()
        ]

    def start(self, progress: Progress) -> None:
        """Ceph, then whatever of Cinder is not running yet, in order, each
        ready before the next; on failure stop everything and raise."""
        self.state.create()
        self.write_files()
        processes = self.processes()
        if not processes[0].is_running():
            require_free({f"{self.name}-api": self.port})
        try:
            self.ceph.start(progress)
            self.setup(progress)
            for process in processes:
                if process.is_running():
                    continue
                process.start()
                waited = process.wait_ready()
                progress.line(f"{process.name}: ready ({waited:.1f} s)")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> list[str]:
        """Stop Cinder's processes, then Ceph's; names of those stopped."""
        stopped = []
        for process in reversed(self.processes()):
            if process.stop():
                stopped.append(process.name)
        return stopped + self.ceph.stop()
