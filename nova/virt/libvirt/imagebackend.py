"""qcow2 disks over a cache of Glance images shared by a host's guests.

Each image a guest needs (its root disk image, its kernel and ramdisk) is
downloaded once into ``<instances_path>/<[image_cache] subdirectory_name>``
under the SHA-1 of its id, as upstream names cached bases; guests' root
disks are qcow2 overlays whose backing file is that base, so a second
guest of the same image costs neither a download nor a copy.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import subprocess
import threading
from collections.abc import Iterator

from oslo_log import log as logging

import nova.conf
from nova import exception

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

GiB = 1024**3
MiB = 1024**2
QEMU_IMG_TIMEOUT = 120


def base_name(image_id: str) -> str:
    """The file name of ``image_id`` in the image cache."""
    return hashlib.sha1(image_id.encode()).hexdigest()


def qemu_img(*args: str) -> str:
    """Run ``qemu-img``; its stdout.

    :raises HypervisorUnavailable: qemu-img failed (the message says why).
    """
    try:
        done = subprocess.run(
            ["qemu-img", *args],
            capture_output=True,
            text=True,
            timeout=QEMU_IMG_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise exception.HypervisorUnavailable(reason=f"qemu-img: {exc}") from exc
    if done.returncode != 0:
        raise exception.HypervisorUnavailable(
            reason=f"qemu-img {args[0]} failed: {done.stderr.strip()}"
        )
    return done.stdout


def image_info(path: str) -> dict:
    """``qemu-img info`` of a file: ``format``, ``virtual-size``, backing file."""
    return json.loads(qemu_img("info", "--output=json", "-U", path))


class ImageCache:
    """The host's directory of downloaded images."""

    def __init__(self, instances_path: str | None = None) -> None:
        self.path = os.path.join(
            instances_path or CONF.instances_path, CONF.image_cache.subdirectory_name
        )
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def base_path(self, image_id: str) -> str:
        return os.path.join(self.path, base_name(image_id))

    @contextlib.contextmanager
    def locked(self, name: str) -> Iterator[None]:
        """Hold ``name`` against this process's threads and other processes
        sharing the directory (a download and a cleanup never overlap)."""
        with self._guard:
            lock = self._locks.setdefault(name, threading.Lock())
        os.makedirs(self.path, exist_ok=True)
        with lock, open(os.path.join(self.path, f".{name}.lock"), "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def fetch(self, context, image_api, image_id: str) -> str:
        """The cached copy of ``image_id``, downloaded if not there yet.

        Using a cached image renews its modification time: the image cache
        manager measures how long an image has been unused from it.
        """
        name = base_name(image_id)
        path = self.base_path(image_id)
        with self.locked(name):
            if os.path.exists(path):
                LOG.debug("Image %s is cached as %s", image_id, path)
                os.utime(path)
                return path
            partial = f"{path}.part"
            LOG.info("Downloading image %s into the image cache", image_id)
            try:
                image_api.download(context, image_id, partial)
                os.rename(partial, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(partial)
            LOG.info("Downloaded image %s into %s", image_id, path)
            return path

    def cached_names(self) -> list[str]:
        """File names of the cached images."""
        if not os.path.isdir(self.path):
            return []
        return [
            name
            for name in os.listdir(self.path)
            if not name.startswith(".") and not name.endswith(".part")
        ]


def create_overlay(base: str, path: str, size_bytes: int) -> None:
    """A qcow2 file at ``path`` backed by ``base``, grown to ``size_bytes``
    (never smaller than the image itself)."""
    info = image_info(base)
    size = max(size_bytes, int(info["virtual-size"]))
    qemu_img(
        "create", "-q", "-f", "qcow2", "-F", info["format"], "-b", base, path, str(size)
    )


def create_blank(path: str, size_bytes: int) -> None:
    """An empty qcow2 disk (ephemeral or swap) of ``size_bytes``."""
    qemu_img("create", "-q", "-f", "qcow2", path, str(size_bytes))
