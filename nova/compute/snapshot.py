"""The image record of a server's snapshot or backup.

The API creates the record (queued, no data) before the compute host is
asked for the data, so the caller learns the image's id at once. What the
image says about itself is upstream's: where it came from
(``instance_uuid``, ``base_image_ref``, ``user_id``), what it is
(``image_type`` ``snapshot`` or ``backup``), and what the server's own
image said, as the server remembers it in its system metadata.
"""

from __future__ import annotations

from typing import Any

import nova.conf
from nova import objects
from nova.image import api as image_api

CONF = nova.conf.CONF

SNAPSHOT = "snapshot"
BACKUP = "backup"

# Keys of an image that are attributes, not properties (as the instance
# remembers them in image_<key> system metadata).
_IMAGE_ATTRIBUTES = ("min_ram", "min_disk")
# Recorded afresh for each snapshot, never inherited.
_NEVER_INHERITED = (
    "base_image_ref",
    "disk_format",
    "container_format",
    "instance_uuid",
    "image_type",
    "backup_type",
    "user_id",
    "img_signature",
    "img_signature_hash_method",
    "img_signature_key_type",
    "img_signature_certificate_uuid",
)


def instance_image_meta(instance):
    """The ImageMeta of the image the instance was made from, as it
    remembers it (no image service asked)."""
    return objects.ImageMeta.from_dict(
        {
            "id": instance.image_ref,
            **image_meta_from_system_metadata(instance.system_metadata),
        }
    )


def image_meta_from_system_metadata(system_metadata: dict[str, str]) -> dict:
    """What the instance remembers of its image (``image_<key>`` keys)."""
    meta: dict[str, Any] = {"properties": {}}
    for key, value in (system_metadata or {}).items():
        if not key.startswith("image_") or value is None:
            continue
        name = key[len("image_") :]
        if name in _IMAGE_ATTRIBUTES:
            meta[name] = int(value)
        else:
            meta["properties"][name] = value
    return meta


def snapshot_image_meta(
    context,
    instance,
    name: str,
    image_type: str,
    extra_properties: dict[str, str] | None = None,
) -> image_api.ImageDict:
    """The image record of a snapshot of ``instance`` named ``name``."""
    meta = image_meta_from_system_metadata(instance.system_metadata)
    inherited = {
        key: value
        for key, value in meta["properties"].items()
        if key not in _NEVER_INHERITED
        and key not in CONF.non_inheritable_image_properties
    }
    properties = {
        **inherited,
        "instance_uuid": instance.uuid,
        "user_id": context.user_id,
        "image_type": image_type,
        "owner_project_name": getattr(context, "project_name", None),
        "owner_user_name": getattr(context, "user_name", None),
    }
    if instance.image_ref:
        properties["base_image_ref"] = instance.image_ref
    properties.update(extra_properties or {})
    image = {
        "name": name,
        "properties": {k: v for k, v in properties.items() if v is not None},
    }
    for key in _IMAGE_ATTRIBUTES:
        if key in meta:
            image[key] = meta[key]
    # A snapshot's disk is the flavor's root disk: booting it needs as much.
    if instance.flavor.root_gb:
        image["min_disk"] = max(image.get("min_disk", 0), instance.flavor.root_gb)
    return image


def create_snapshot_image(
    images: image_api.ImageAPI,
    context,
    instance,
    name: str,
    image_type: str = SNAPSHOT,
    extra_properties: dict[str, str] | None = None,
) -> image_api.ImageDict:
    """Create the (queued) image record; the compute host uploads its data."""
    return images.create(
        context,
        snapshot_image_meta(context, instance, name, image_type, extra_properties),
    )
