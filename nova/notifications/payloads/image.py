"""ImageMetaPayload and ImageMetaPropsPayload: the image a request asks
for (inside RequestSpecPayload)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base
from nova.objects import image_meta

_IMAGE_FIELDS = (
    "id",
    "name",
    "status",
    "visibility",
    "protected",
    "checksum",
    "owner",
    "size",
    "virtual_size",
    "container_format",
    "disk_format",
    "created_at",
    "updated_at",
    "tags",
    "direct_url",
    "min_ram",
    "min_disk",
)


@base.PayloadRegistry.register
class ImageMetaPropsPayload(base.NotificationPayloadBase):
    """The properties the image sets, among those nova knows (upstream
    sends only those set, not a null for every other one)."""

    # Upstream's current version; its field list follows its own
    # ImageMetaProps, of which ours is a subset.
    VERSION = "1.14"
    fields = {
        name: field.__class__()
        for name, field in image_meta.ImageMetaProps.fields.items()
    }

    @classmethod
    def from_props(cls, props) -> ImageMetaPropsPayload:
        payload = cls()
        for name in cls.fields:
            if props is not None and name in props:
                setattr(payload, name, getattr(props, name))
        return payload


@base.PayloadRegistry.register
class ImageMetaPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    SCHEMA = {name: ("image", name) for name in _IMAGE_FIELDS}
    # Glance may leave any of them out (and a volume-backed server has
    # no image at all), hence nullable throughout, as upstream.
    fields = {
        "id": fields.UUIDField(nullable=True),
        "name": fields.StringField(nullable=True),
        "status": fields.StringField(nullable=True),
        "visibility": fields.StringField(nullable=True),
        "protected": fields.FlexibleBooleanField(nullable=True),
        "checksum": fields.StringField(nullable=True),
        "owner": fields.StringField(nullable=True),
        "size": fields.IntegerField(nullable=True),
        "virtual_size": fields.IntegerField(nullable=True),
        "container_format": fields.StringField(nullable=True),
        "disk_format": fields.StringField(nullable=True),
        "created_at": fields.DateTimeField(nullable=True),
        "updated_at": fields.DateTimeField(nullable=True),
        "tags": fields.ListOfStringsField(nullable=True),
        "direct_url": fields.StringField(nullable=True),
        "min_ram": fields.IntegerField(nullable=True),
        "min_disk": fields.IntegerField(nullable=True),
        "properties": fields.ObjectField("ImageMetaPropsPayload"),
    }

    @classmethod
    def from_image(cls, image) -> ImageMetaPayload:
        payload = cls.from_sources(image=image)
        props = image.properties if "properties" in image else None
        payload.properties = ImageMetaPropsPayload.from_props(props)
        return payload
