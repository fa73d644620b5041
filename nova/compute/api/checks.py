"""Checks of what a server is built or rebuilt from: its flavor, its image,
its key pair and the host an admin asked for."""

from __future__ import annotations

from typing import Any

import nova.conf
from nova import context as nova_context
from nova import exception, objects, policy
from nova.policies import servers as server_policies

CONF = nova.conf.CONF

# Sysmeta values live in a 255-character column.
SYSTEM_METADATA_MAX_LENGTH = 255

_GiB = 1024**3


def get_flavor(context, flavor_ref: str):
    """The flavor ``flavorRef`` names (an id, or a URL ending in one).

    :raises InvalidFlavorRef: (400) there is no such flavor.
    """
    flavor_id = str(flavor_ref).rstrip("/").rsplit("/", 1)[-1]
    try:
        return objects.Flavor.get_by_flavor_id(context, flavor_id)
    except exception.FlavorNotFound as exc:
        raise exception.InvalidFlavorRef() from exc


def get_image(image_api, context, image_id: str) -> dict[str, Any]:
    """The active image ``image_id``.

    :raises RequestedImageNotFound: (400) no such image.
    :raises ImageNotActive: (409) it is not active.
    """
    try:
        image = image_api.show(context, image_id)
    except exception.ImageNotFound as exc:
        raise exception.RequestedImageNotFound() from exc
    if image.get("status") != "active":
        raise exception.ImageNotActive(image_id=image_id)
    return image


def check_flavor_fits_image(context, flavor, image: dict[str, Any]) -> None:
    """:raises FlavorMemoryTooSmall: / :raises FlavorDiskTooSmall: (400)"""
    if image.get("min_ram", 0) > flavor.memory_mb:
        raise exception.FlavorMemoryTooSmall()
    if flavor.root_gb == 0:
        # The root disk would take the image's size: only admins may.
        policy.authorize(context, server_policies.SERVERS % "create:zero_disk_flavor")
        return
    if image.get("min_disk", 0) > flavor.root_gb:
        raise exception.FlavorDiskTooSmall()
    for size_key in ("size", "virtual_size"):
        if (image.get(size_key) or 0) > flavor.root_gb * _GiB:
            raise exception.FlavorDiskTooSmall()


def key_data(context, key_name: str | None) -> str | None:
    """The public key of the caller's key pair ``key_name``.

    :raises InvalidKeyName: (400) the caller has no such key pair.
    """
    if key_name is None:
        return None
    try:
        keypair = objects.KeyPair.get_by_name(context, context.user_id, key_name)
    except exception.KeypairNotFound as exc:
        raise exception.InvalidKeyName() from exc
    if keypair.public_key is None:
        raise exception.InvalidKeyName()
    return keypair.public_key


def image_system_metadata(image: dict[str, Any] | None) -> dict[str, str]:
    """What an instance remembers of its image: ``image_<property>`` keys."""
    if not image:
        return {}
    values: dict[str, Any] = {
        "base_image_ref": image.get("id"),
        "min_ram": image.get("min_ram"),
        "min_disk": image.get("min_disk"),
        "disk_format": image.get("disk_format"),
        "container_format": image.get("container_format"),
    }
    for key, value in (image.get("properties") or {}).items():
        if key not in CONF.non_inheritable_image_properties:
            values[key] = value
    return {
        f"image_{key}": str(value)[:SYSTEM_METADATA_MAX_LENGTH]
        for key, value in values.items()
        if value is not None
    }


def destination(context, host: str | None, node: str | None = None):
    """A Destination of ``host`` and/or ``node``, once known to exist;
    None when neither is given.

    :raises Invalid: (400) for a host or node no cell knows.
    """
    if not host and not node:
        return None
    if host:
        try:
            cells = [objects.HostMapping.get_by_host(context, host).cell_mapping]
        except exception.HostMappingNotFound:
            raise exception.Invalid(
                str(exception.ComputeHostNotFound(host=host))
            ) from None
    else:
        cells = [
            c for c in objects.CellMappingList.get_all(context) if not c.is_cell0()
        ]
    found = False
    for cell in cells:
        with nova_context.target_cell(context, cell) as cctxt:
            try:
                nodes = (
                    objects.ComputeNodeList.get_all_by_host(cctxt, host)
                    if host
                    else objects.ComputeNodeList.get_all(cctxt)
                )
            except exception.ComputeHostNotFound:
                continue
        found = found or any(not node or n.hypervisor_hostname == node for n in nodes)
    if not found:
        name = f"{host or ''}:{node}" if node else host
        raise exception.Invalid(str(exception.ComputeHostNotFound(host=name)))
    result = objects.Destination()
    if host:
        result.host = host
    if node:
        result.node = node
    return result
