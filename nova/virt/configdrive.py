"""Config drives: the instance's metadata on a disk its guest can mount.

A guest without a metadata network still finds its uuid, user_data, keys,
vendor data, network_data.json and personality files: the same OpenStack
and EC2 trees the metadata API serves (:mod:`nova.metadata.instance` builds
both), written to an ISO 9660 image labelled ``config-2`` (with Rock Ridge
and Joliet names) by pycdlib, so no external tool is needed.

Upstream's vfat format needs ``mkfs.vfat`` and a mount; it is not offered
here and a compute configured for it refuses to start (:func:`check_format`).
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import posixpath

import pycdlib
from oslo_utils import strutils

import nova.conf
from nova import exception
from nova.metadata import instance as instance_metadata

CONF = nova.conf.CONF

LABEL = "config-2"
# The file of the drive in the instance's directory, as upstream names it.
FILE_NAME = "disk.config"
SUPPORTED_FORMATS = ("iso9660",)


def check_format() -> None:
    """:raises ConfigDriveUnsupportedFormat: ``[DEFAULT] config_drive_format``
    names a format this compute cannot build (checked at start, so an
    operator learns it before the first guest asks for a drive)."""
    drive_format = CONF.config_drive_format
    if drive_format not in SUPPORTED_FORMATS:
        raise exception.ConfigDriveUnsupportedFormat(
            format=drive_format,
            reason="only iso9660 config drives are built; set "
            "[DEFAULT] config_drive_format = iso9660",
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


def write_config_drive(
    path: str, instance, injected_files=None, admin_password: str | None = None
) -> None:
    """Build ``instance``'s config drive into ``path`` and record on the
    instance that it has one (``config_drive`` "True", as the API shows)."""
    metadata = metadata_of(instance, injected_files, admin_password)
    image = make_iso(list(metadata.config_drive_files()))
    partial = f"{path}.part"
    with open(partial, "wb") as stream:
        stream.write(image)
    os.replace(partial, path)
    instance.config_drive = "True"
