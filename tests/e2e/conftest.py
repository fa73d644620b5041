"""End-to-end tests on real libvirtd + QEMU (TCG: ``virt_type = qemu``).

``guest_images`` builds a kernel, a busybox ramdisk and a disk image from
Debian packages once per package version (cached under
``/var/cache/nova-test-images``). ``libvirt_cloud`` launches a cloud with
``nova-local-cloud``'s launcher (real Keystone, Placement, Glance, MariaDB,
RabbitMQ, our API, scheduler and conductors) without its fake computes, and
one nova-compute of its own on ``libvirt.LibvirtDriver`` at
``qemu:///system``; a module changes the cloud's configuration by
overriding ``libvirt_cloud_options``.

Without libvirtd these tests skip; under CI=true they fail (.ci/run starts
libvirtd).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures import local_cloud as local_cloud_fixture
from tests.fixtures.databases import skip_or_fail
from tests.fixtures.local_cloud import LocalCloud, wait_for
from tests.fixtures.openstack_services import _handle

IMAGE_CACHE = Path(
    os.environ.get("NOVA_TEST_IMAGE_CACHE", "/var/cache/nova-test-images")
)
BUILD_SCRIPT = Path(__file__).with_name("build_guest_images.sh")
LIBVIRT_URI = "qemu:///system"
COMPUTE_START_TIMEOUT = 120


def libvirt_unavailable_reason() -> str | None:
    try:
        import libvirt
    except ImportError:
        return "libvirt-python is not installed"
    for tool in ("qemu-img", "qemu-system-x86_64", "apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    try:
        libvirt.registerErrorHandler(lambda *_: None, None)
        libvirt.open(LIBVIRT_URI).close()
    except libvirt.libvirtError as exc:
        return f"libvirtd does not answer at {LIBVIRT_URI}: {exc}"
    return None


@pytest.fixture(scope="session")
def libvirt_host() -> None:
    reason = libvirt_unavailable_reason()
    if reason:
        skip_or_fail(reason)


def _candidate(package: str) -> str:
    out = subprocess.run(
        ["apt-cache", "policy", package], capture_output=True, text=True, check=False
    ).stdout
    for line in out.splitlines():
        if line.strip().startswith("Candidate:"):
            return line.split(":", 1)[1].strip()
    return ""


def _image_set_key() -> str:
    """Kernel package, busybox version and build script: a new one of any
    of them builds a new image set."""
    kernel = _candidate("linux-image-cloud-amd64")
    if not kernel or kernel == "(none)":
        subprocess.run(["apt-get", "-qq", "update"], check=True, timeout=600)
        kernel = _candidate("linux-image-cloud-amd64")
    script = hashlib.sha1(BUILD_SCRIPT.read_bytes()).hexdigest()[:8]
    raw = f"{kernel}-{_candidate('busybox-static')}-{script}"
    return "".join(c if c.isalnum() or c in ".-" else "_" for c in raw)


@dataclass(frozen=True)
class GuestImages:
    kernel: Path
    ramdisk: Path
    disk: Path


@pytest.fixture(scope="session")
def guest_images(libvirt_host) -> GuestImages:
    directory = IMAGE_CACHE / _image_set_key()
    IMAGE_CACHE.mkdir(parents=True, exist_ok=True)
    # One builder at a time: pytest-xdist workers both needing a new set
    # would otherwise build into the same temporary directory.
    with local_cloud_fixture._flock(IMAGE_CACHE / f"{directory.name}.lock"):
        if not directory.exists():
            shutil.rmtree(f"{directory}.tmp", ignore_errors=True)
            subprocess.run(["bash", str(BUILD_SCRIPT), str(directory)],
                           check=True, timeout=900)  # fmt: skip
    return GuestImages(
        kernel=directory / "vmlinuz",
        ramdisk=directory / "initramfs.cpio.gz",
        disk=directory / "disk.qcow2",
    )


@dataclass
class LibvirtCompute:
    """The nova-compute process on the libvirt driver."""

    host: str
    state_path: Path
    log_file: Path
    process: subprocess.Popen

    @property
    def instances_path(self) -> Path:
        return self.state_path / "instances"

    @property
    def image_cache(self) -> Path:
        return self.instances_path / "_base"

    def log(self) -> str:
        return self.log_file.read_text(errors="replace")


def _compute_conf(path: Path, host: str, state_path: Path, more: str = "") -> None:
    path.write_text(
        "[DEFAULT]\n"
        f"host = {host}\n"
        "compute_driver = libvirt.LibvirtDriver\n"
        f"state_path = {state_path}\n"
        "sync_power_state_interval = 10\n"
        # Domain names of this test's own, never another run's leftovers.
        f"instance_name_template = {host}-%08x\n"
        "[libvirt]\n"
        "virt_type = qemu\n"
        f"connection_uri = {LIBVIRT_URI}\n"
        "[vnc]\n"
        "server_listen = 127.0.0.1\n"
        "[oslo_concurrency]\n"
        f"lock_path = {state_path / 'lock'}\n"
        f"{more}"
    )


def compute_host_name() -> str:
    return f"libvirt-{uuid.uuid4().hex[:6]}"


@contextlib.contextmanager
def _libvirt_compute(
    cloud: LocalCloud, root: Path, host: str | None = None, more_conf: str = ""
) -> Iterator[LibvirtCompute]:
    """A libvirt compute named ``host`` (a new name if None); ``more_conf``
    is added to its own configuration file."""
    host = host or compute_host_name()
    state_path = root / host
    state_path.mkdir(parents=True)
    conf = root / f"{host}.conf"
    _compute_conf(conf, host, state_path, more_conf)
    log_file = root / f"{host}.log"
    argv = [
        str(Path(sys.executable).parent / "nova-compute"),
        "--config-file", str(cloud.deployment.nova.configs.cell1_conf),
        "--config-file", str(conf),
        "--log-file", str(log_file),
    ]  # fmt: skip
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    # Stopped with the cloud if this test run dies (a stray of its state).
    (cloud.deployment.state.run / f"{host}.pid").write_text(str(process.pid))
    compute = LibvirtCompute(host, state_path, log_file, process)
    try:
        wait_for(
            lambda: (
                process.poll() is not None
                or any(
                    s["Host"] == host and s["State"] == "up"
                    for s in cloud.openstack("compute", "service", "list")
                )
            ),
            COMPUTE_START_TIMEOUT,
            f"{host} to report up",
            interval=2,
        )
        if process.poll() is not None:
            raise AssertionError(f"{host} exited:\n{compute.log()[-4000:]}")
        # The scheduler maps new hosts to their cell every 2 s.
        time.sleep(3)
        yield compute
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        (cloud.deployment.state.run / f"{host}.pid").unlink(missing_ok=True)
        _remove_domains(host)


def _remove_domains(prefix: str) -> None:
    """Destroy the guests a failed test left behind, and their taps (which
    outlive a guest: nova's driver made them)."""
    import libvirt

    from nova.virt.libvirt import driver

    conn = libvirt.open(LIBVIRT_URI)
    try:
        for domain in conn.listAllDomains(0):
            if domain.name().startswith(prefix):
                taps = driver.LibvirtDriver._taps(domain)
                if domain.isActive():
                    domain.destroy()
                domain.undefineFlags(libvirt.VIR_DOMAIN_UNDEFINE_MANAGED_SAVE)
                for tap in taps:
                    subprocess.run(["ip", "link", "delete", "dev", tap],
                                   capture_output=True, check=False)  # fmt: skip
    finally:
        conn.close()


@pytest.fixture(scope="module")
def libvirt_cloud_options() -> dict[str, dict[str, object]]:
    """More nova.conf sections for the module's cloud, its compute's
    included (a module overrides this fixture to change them)."""
    return {}


@pytest.fixture(scope="module")
def libvirt_cloud(
    libvirt_host, tmp_path_factory, libvirt_cloud_options
) -> Iterator[tuple[LocalCloud, LibvirtCompute]]:
    """A cloud whose only compute runs the libvirt driver."""
    reason = local_cloud_fixture.unavailable_reason()
    if reason:
        skip_or_fail(reason)
    root = tmp_path_factory.mktemp("libvirt-cloud")
    state_dir = root / "cloud"
    state_dir.mkdir()
    # The launcher's test settings, without fake computes.
    deployment = local_cloud_fixture.start_local_cloud(
        state_dir,
        os.getpid(),
        computes=0,
        more_options=lambda settings: libvirt_cloud_options,
    )
    try:
        cloud = LocalCloud(
            deployment=deployment,
            services=_handle(deployment.upstream, deployment.state.root),
            lock_path=root / "tests.lock",
        )
        with _libvirt_compute(cloud, root) as compute:
            yield cloud, compute
    finally:
        local_cloud_fixture.stop_local_cloud(state_dir)
