"""Image metadata as the scheduler and the virt drivers use it.

Built from Glance's image dict (``ImageMeta.from_dict``), whether the
properties come nested under ``properties`` or, as Glance v2 returns them,
at the top level. Properties nova has no field for are ignored.
"""

from __future__ import annotations

from typing import Any

from oslo_utils import strutils
from oslo_versionedobjects import fields

from nova.objects import base

# Legacy property names and the fields that replaced them.
_LEGACY_PROPERTY_NAMES = {
    "architecture": "hw_architecture",
    "hypervisor_type": "img_hv_type",
    "hypervisor_version_requires": "img_hv_requested_version",
    "vm_mode": "hw_vm_mode",
}
# A property ``trait:CUSTOM_X=required`` asks for hosts with that trait.
_TRAIT_PREFIX = "trait:"

_TOP_LEVEL_FIELDS = (
    "id",
    "name",
    "status",
    "visibility",
    "checksum",
    "container_format",
    "disk_format",
    "min_disk",
    "min_ram",
    "owner",
    "protected",
    "size",
    "virtual_size",
    "created_at",
    "updated_at",
    "tags",
)


@base.NovaObjectRegistry.register
class ImageMetaProps(base.NovaObject):
    """The image properties nova acts on."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "hw_architecture": fields.StringField(),
        "hw_boot_menu": fields.FlexibleBooleanField(),
        "hw_cdrom_bus": fields.StringField(),
        "hw_cpu_cores": fields.IntegerField(),
        "hw_cpu_policy": fields.StringField(),
        "hw_cpu_sockets": fields.IntegerField(),
        "hw_cpu_threads": fields.IntegerField(),
        "hw_disk_bus": fields.StringField(),
        "hw_firmware_type": fields.StringField(),
        "hw_floppy_bus": fields.StringField(),
        "hw_machine_type": fields.StringField(),
        "hw_mem_page_size": fields.StringField(),
        "hw_numa_nodes": fields.IntegerField(),
        "hw_pointer_model": fields.StringField(),
        "hw_qemu_guest_agent": fields.FlexibleBooleanField(),
        "hw_rng_model": fields.StringField(),
        "hw_scsi_model": fields.StringField(),
        "hw_serial_port_count": fields.IntegerField(),
        "hw_video_model": fields.StringField(),
        "hw_vif_model": fields.StringField(),
        "hw_vm_mode": fields.StringField(),
        "img_config_drive": fields.StringField(),
        "img_hv_requested_version": fields.StringField(),
        "img_hv_type": fields.StringField(),
        "os_admin_user": fields.StringField(),
        "os_distro": fields.StringField(),
        "os_require_quiesce": fields.FlexibleBooleanField(),
        "os_type": fields.StringField(),
        "os_version": fields.StringField(),
        "traits_required": fields.ListOfStringsField(),
    }

    @classmethod
    def from_dict(cls, properties: dict[str, Any]) -> ImageMetaProps:
        props = cls()
        traits = []
        for key, value in (properties or {}).items():
            if key.startswith(_TRAIT_PREFIX):
                if str(value).lower() == "required":
                    traits.append(key[len(_TRAIT_PREFIX) :])
                continue
            name = _LEGACY_PROPERTY_NAMES.get(key, key)
            if name in props.fields and value is not None:
                # A newer name wins over its legacy alias.
                if name != key or name not in props:
                    setattr(props, name, value)
        if traits:
            props.traits_required = sorted(traits)
        props.obj_reset_changes()
        return props

    def get(self, name: str, default: Any = None) -> Any:
        """The property's value, or ``default`` when the image lacks it."""
        return getattr(self, name) if name in self else default


@base.NovaObjectRegistry.register
class ImageMeta(base.NovaObject):
    """A Glance image as nova sees it."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.UUIDField(),
        "name": fields.StringField(),
        "status": fields.StringField(),
        "visibility": fields.StringField(),
        "checksum": fields.StringField(),
        "container_format": fields.StringField(),
        "disk_format": fields.StringField(),
        "min_disk": fields.IntegerField(),
        "min_ram": fields.IntegerField(),
        "owner": fields.StringField(),
        "protected": fields.BooleanField(),
        "size": fields.IntegerField(),
        "virtual_size": fields.IntegerField(),
        "created_at": fields.DateTimeField(),
        "updated_at": fields.DateTimeField(),
        "tags": fields.ListOfStringsField(),
        "properties": fields.ObjectField("ImageMetaProps"),
    }

    @classmethod
    def from_dict(cls, image: dict[str, Any] | None) -> ImageMeta:
        """From an image dict; unset or None values stay unset."""
        image = dict(image or {})
        meta = cls()
        for name in _TOP_LEVEL_FIELDS:
            value = image.get(name)
            if value is not None:
                if name == "protected":
                    value = strutils.bool_from_string(value)
                setattr(meta, name, value)
        properties = image.get("properties")
        if properties is None:
            # Glance v2: custom properties sit next to the image's own keys.
            properties = {
                k: v
                for k, v in image.items()
                if k not in _TOP_LEVEL_FIELDS and k not in ("file", "schema", "self")
            }
        meta.properties = ImageMetaProps.from_dict(properties)
        meta.obj_reset_changes()
        return meta
