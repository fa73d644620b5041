"""Config drives: the instance's metadata on a disk its guest can mount.

A guest without a metadata network still finds its uuid, user_data, keys,
vendor data, network_data.json and personality files: the same OpenStack
and EC2 trees the metadata API serves (:mod:`nova.metadata.instance` builds
both), written to an image labelled ``config-2`` in the format of
``[DEFAULT] config_drive_format``:

- ``iso9660`` (the default): ISO 9660 with Rock Ridge and Joliet names,
  built in process by pycdlib;
- ``vfat``: a 64 MiB FAT file system made by ``mkfs.vfat`` (dosfstools) and
  filled by ``mcopy`` (mtools), so no mount and no root are needed. A
  compute without those programs refuses to start (:func:`check_format`).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import io
import os
import posixpath
import shutil
import subprocess
import tempfile

import pycdlib
from oslo_utils import strutils

import nova.conf
from nova import exception
from nova.metadata import instance as instance_metadata

CONF = nova.conf.CONF

LABEL = "config-2"
# The file of the drive in the instance's directory, as upstream names it.
FILE_NAME = "disk.config"
ISO9660 = "iso9660"
VFAT = "vfat"
# Upstream's size of a vfat config drive: room for large user_data and
# personality files whatever the metadata holds.
VFAT_SIZE_MIB = 64
# The programs a vfat drive is made with, and the packages holding them.
VFAT_TOOLS = {"mkfs.vfat": "dosfstools", "mcopy": "mtools"}
# Seconds a drive's mkfs or copy may take.
TOOL_TIMEOUT = 120


def check_format() -> None:
    """:raises ConfigDriveUnsupportedFormat: ``[DEFAULT] config_drive_format``
    is vfat and this compute lacks the programs that make one (checked at
    start, so an operator learns it before the first guest asks for a
    drive)."""
    if CONF.config_drive_format != VFAT:
        return
    missing = [tool for tool in VFAT_TOOLS if shutil.which(tool) is None]
    if missing:
        raise exception.ConfigDriveUnsupportedFormat(
            format=VFAT,
            reason=f"{', '.join(missing)} not found; install "
            f"{' and '.join(VFAT_TOOLS[tool] for tool in missing)}",
        )


def required_by(instance, image_meta=None) -> bool:
    """Whether ``instance`` gets a config drive: it asked for one, its image
    has ``img_config_drive=mandatory``, or ``[DEFAULT] force_config_drive``."""
    if CONF.force_config_drive:
        return True
    requested = instance.config_drive if "config_drive" in instance else None
    if strutils.bool_from_string(requested or ""):
        return True
    properties = (
        image_meta.properties
        if image_meta is not None and "properties" in image_meta
        else None
    )
    return properties is not None and properties.get("img_config_drive") == "mandatory"


def _decoded(contents: str | bytes) -> bytes:
    """A personality file's bytes: the API hands them on in base64 (as
    upstream does); text that is not base64 is taken as it is."""
    if isinstance(contents, bytes):
        return contents
    try:
        return base64.b64decode(contents, validate=True)
    except (binascii.Error, ValueError):
        return contents.encode()


def metadata_of(
    instance, injected_files=None, admin_password: str | None = None
) -> instance_metadata.InstanceMetadata:
    """The metadata ``instance``'s drive carries: what the metadata API
    serves plus its personality files and admin password."""
    content = [(path, _decoded(contents)) for path, contents in injected_files or []]
    extra_md = {"admin_pass": admin_password} if admin_password else None
    return instance_metadata.InstanceMetadata(
        instance, content=content, extra_md=extra_md
    )


def _iso_name(name: str, is_dir: bool) -> str:
    # Interchange level 4 takes almost any name; ISO 9660 itself wants
    # upper case without '-', and readers use the Rock Ridge/Joliet names.
    name = name.upper().replace("-", "_")
    return name if is_dir else f"{name};1"


def make_iso(files: list[tuple[str, bytes]]) -> bytes:
    """An ISO 9660 image labelled ``config-2`` holding ``files``
    ((path, bytes), paths relative to the root, '/' separated)."""
    iso = pycdlib.PyCdlib()
    iso.new(interchange_level=4, joliet=3, rock_ridge="1.09", vol_ident=LABEL)
    made: set[str] = set()
    try:
        for path, data in files:
            parent = ""
            for part in path.split("/")[:-1]:
                directory = posixpath.join(parent, part)
                if directory not in made:
                    iso.add_directory(
                        iso_path="/" + _iso_path(directory, is_dir=True),
                        rr_name=part,
                        joliet_path="/" + directory,
                    )
                    made.add(directory)
                parent = directory
            iso.add_fp(
                io.BytesIO(data),
                len(data),
                iso_path="/" + _iso_path(path, is_dir=False),
                rr_name=posixpath.basename(path),
                joliet_path="/" + path,
            )
        image = io.BytesIO()
        iso.write_fp(image)
        return image.getvalue()
    finally:
        iso.close()


def _iso_path(path: str, is_dir: bool) -> str:
    parts = path.split("/")
    return "/".join(
        _iso_name(part, is_dir=is_dir or index < len(parts) - 1)
        for index, part in enumerate(parts)
    )


def make_vfat(files: list[tuple[str, bytes]], path: str) -> None:
    """A 64 MiB FAT image labelled ``config-2`` holding ``files`` ((path,
    bytes), paths relative to the root, '/' separated), written to
    ``path``."""
    with tempfile.TemporaryDirectory(prefix="configdrive-") as tree:
        for name, data in files:
            target = os.path.join(tree, *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as stream:
                stream.write(data)
        # mkfs.vfat -C makes the file, so it must not exist yet.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        _run(["mkfs.vfat", "-n", LABEL, "-C", path, str(VFAT_SIZE_MIB * 1024)])
        tops = sorted(os.path.join(tree, entry) for entry in os.listdir(tree))
        if tops:
            _run(["mcopy", "-s", "-i", path, *tops, "::/"])


def _run(argv: list[str]) -> None:
    """Run a drive-making program.

    :raises ConfigDriveBuildFailed: it failed or took too long.
    """
    # mtools would otherwise refuse an image whose geometry it doubts.
    env = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}
    try:
        subprocess.run(
            argv, check=True, capture_output=True, timeout=TOOL_TIMEOUT, env=env
        )
    except subprocess.CalledProcessError as exc:
        raise exception.ConfigDriveBuildFailed(
            reason=f"{argv[0]}: {exc.stderr.decode(errors='replace').strip()}"
        ) from exc
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise exception.ConfigDriveBuildFailed(reason=f"{argv[0]}: {exc}") from exc


def write_config_drive(
    path: str, instance, injected_files=None, admin_password: str | None = None
) -> None:
    """Build ``instance``'s config drive into ``path``, in ``[DEFAULT]
    config_drive_format``, and record on the instance that it has one
    (``config_drive`` "True", as the API shows)."""
    metadata = metadata_of(instance, injected_files, admin_password)
    files = list(metadata.config_drive_files())
    partial = f"{path}.part"
    if CONF.config_drive_format == VFAT:
        make_vfat(files, partial)
    else:
        with open(partial, "wb") as stream:
            stream.write(make_iso(files))
    os.replace(partial, path)
    instance.config_drive = "True"
