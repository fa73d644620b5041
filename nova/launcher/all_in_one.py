"""The all-in-one: a whole cloud driven by one foreground process.

:class:`AllInOne` is a :class:`~nova.launcher.deployment.Deployment` whose
settings say ``all_in_one``: Keystone, Placement and Glance are supervised
child processes as in every deployment, while our services run as threads
of this process (:mod:`nova.launcher.in_process`) instead of one process
each. Once they serve, the cloud gets its content
(:mod:`nova.launcher.cloud_content`): DevStack's flavors and a small image.

The process owns the cloud for as long as it runs: an exclusive lock on
``<state>/aio.lock`` makes a second start say which process runs it, and
:meth:`AllInOne.run` serves until SIGINT or SIGTERM, then stops everything
(our threads, then the children, each process group waited for). The
children also watch this process and stop by themselves should it be
killed outright.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from nova.launcher.catalog import admin_session
from nova.launcher.cloud_content import (
    IMAGE_NAME,
    boot_sector_image,
    create_flavors,
    upload_image,
)
from nova.launcher.deployment import Deployment
from nova.launcher.errors import LauncherError
from nova.launcher.in_process import InProcessNova
from nova.launcher.nova_services import NovaServices
from nova.launcher.progress import Progress
from nova.launcher.settings import DeploymentSettings
from nova.launcher.upstream import UpstreamServices

LOCK_NAME = "aio.lock"
NOVA_LOG = "nova"  # logs/nova.log: every one of our services


class AlreadyRunning(LauncherError):
    """Another process runs the cloud of this state directory."""


class AllInOne(Deployment):
    """One all-in-one cloud in ``state_dir`` (see the module docstring)."""

    def __init__(
        self,
        state_dir: Path | str,
        settings: DeploymentSettings | None = None,
        out: TextIO | None = sys.stdout,
    ) -> None:
        if settings is not None and not settings.all_in_one:
            raise ValueError("AllInOne needs settings with all_in_one set")
        super().__init__(state_dir, settings, out=out, daemons=())
        if not self.settings.all_in_one:
            raise LauncherError(
                f"{self.state.root} holds a nova-local-cloud deployment, not an "
                "all-in-one; use `nova-local-cloud` with it, or another state dir"
            )
        self.exit_with_pid = os.getpid()
        self._nova: InProcessNova | None = None
        self.image_id: str | None = None

    # -- ownership -----------------------------------------------------------

    @contextlib.contextmanager
    def owned(self) -> Iterator[None]:
        """Hold the state directory's lock; :class:`AlreadyRunning` if taken."""
        self.state.root.mkdir(parents=True, exist_ok=True)
        path = self.state.root / LOCK_NAME
        with path.open("a+") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                lock.seek(0)
                holder = lock.read().strip() or "unknown"
                raise AlreadyRunning(
                    f"the all-in-one in {self.state.root} is already running "
                    f"(pid {holder}); stop it with Ctrl-C in its terminal or "
                    f"`kill -INT {holder}`"
                ) from None
            lock.seek(0)
            lock.truncate()
            lock.write(f"{os.getpid()}\n")
            lock.flush()
            try:
                yield
            finally:
                lock.truncate(0)

    # -- Deployment hooks ------------------------------------------------------

    def _our_ports(self, nova: NovaServices, down: set[str]) -> dict[str, int]:
        # Our services live and die with this process: none is running yet.
        return {"nova-api": self.settings.ports.nova_api}

    def _start_our_services(self, nova: NovaServices, progress: Progress) -> None:
        self._nova = InProcessNova(
            nova.configs.all_in_one_conf, self.state.log(NOVA_LOG), progress
        )
        self._nova.load_configuration()
        self._nova.start()

    def start(self) -> None:
        """Start the cloud; then create its flavors and image (once)."""
        # Children of an earlier run that was killed outright may still be
        # up (their watchdog takes a moment); this run supervises its own.
        self.stop(quiet=True)
        super().start()
        self._add_content(Progress(self.out))

    def _add_content(self, progress: Progress) -> None:
        upstream = self.upstream
        admin = admin_session(upstream.auth_url, self.settings.admin_password)
        if not self.state.step_done("aio-flavors"):
            with progress.step("nova: flavors m1.tiny … m1.xlarge"):
                create_flavors(admin, upstream.compute_url)
            self.state.mark_step("aio-flavors")
        with progress.step(f"glance: image {IMAGE_NAME}"):
            self.image_id, _ = upload_image(
                admin, upstream.glance.url, IMAGE_NAME, boot_sector_image()
            )

    def _summary(
        self, progress: Progress, upstream: UpstreamServices, nova: NovaServices
    ) -> None:
        if progress.out is None:
            return
        clouds = upstream.clouds()
        demo, admin = clouds["demo"].name, clouds["admin"].name
        lines = [
            f"  identity   {upstream.auth_url}",
            f"  compute    {upstream.compute_url}",
            f"  nova.conf  {nova.configs.all_in_one_conf}",
            f"  logs       {self.state.logs} (ours: {self.state.log(NOVA_LOG)})",
            "",
            "Use it from another terminal:",
            f"  export OS_CLIENT_CONFIG_FILE={self.state.clouds_yaml}",
            f"  openstack --os-cloud {demo} server create --flavor m1.tiny "
            f"--image {IMAGE_NAME} --no-network --wait s1",
            f"  openstack --os-cloud {admin} compute service list",
            "Ctrl-C stops the cloud; the next start resumes it.",
        ]
        progress.out.write("\n".join(lines) + "\n")
        progress.out.flush()

    def stop(self, quiet: bool = False) -> list[str]:
        """Stop our in-process services, then every child process."""
        if self._nova is not None:
            Progress(None if quiet else self.out).line("stopping our services")
            self._nova.stop()
            self._nova = None
        return super().stop(quiet=quiet)

    # -- the foreground process ----------------------------------------------

    def run(self) -> None:
        """Start, print how to use the cloud, serve until SIGINT or SIGTERM,
        then stop everything."""
        stop_requested = threading.Event()

        def on_signal(signum: int, _frame) -> None:
            if stop_requested.is_set():
                return  # already stopping; a second interrupt must not cut it short
            stop_requested.set()
            # Interrupts a start in progress, which then stops what it began.
            raise KeyboardInterrupt

        with self.owned():
            previous = {
                signum: signal.signal(signum, on_signal)
                for signum in (signal.SIGINT, signal.SIGTERM)
            }
            try:
                self.start()
                # Handlers run between bytecodes of the main thread: short waits.
                while not stop_requested.wait(0.5):
                    pass
            except KeyboardInterrupt:
                pass
            finally:
                # A second Ctrl-C must not cut the stop short: that would
                # leave children behind.
                for signum in previous:
                    signal.signal(signum, signal.SIG_IGN)
                Progress(self.out).line("stopping the cloud")
                self.stop()
                for signum, handler in previous.items():
                    signal.signal(signum, handler)
