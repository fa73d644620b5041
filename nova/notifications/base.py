"""Versioned payloads: objects serialised with their name, version and
namespace (``nova_object.*``) as upstream's notification consumers expect.

They have their own registry so that they never stand in for, or are taken
for, the objects nova stores and sends over RPC.
"""

from __future__ import annotations

from typing import Any, ClassVar

from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields


class PayloadRegistry(ovo_base.VersionedObjectRegistry):
    """Registry of notification payload classes (no nova.objects alias)."""


class NotificationPayloadBase(ovo_base.VersionedObject):
    """A payload. ``SCHEMA`` maps a field to ``(source, attribute)``: the
    attribute of the keyword argument ``source`` of :meth:`populate_schema`
    the field copies."""

    OBJ_SERIAL_NAMESPACE = "nova_object"
    OBJ_PROJECT_NAMESPACE = "nova"
    SCHEMA: ClassVar[dict[str, tuple[str, str]]] = {}

    @classmethod
    def from_sources(cls, **sources: Any):
        """A payload whose ``SCHEMA`` fields are copied from ``sources``."""
        payload = cls()
        payload.populate_schema(**sources)
        return payload

    def populate_schema(self, **sources: Any) -> None:
        """Copy every ``SCHEMA`` field from its source; an attribute the
        source does not hold gives None (the field's default if it has one)."""
        for name, (source, attribute) in self.SCHEMA.items():
            obj = sources[source]
            if isinstance(obj, ovo_base.VersionedObject) and not (
                (attribute in obj.obj_fields and obj.obj_attr_is_set(attribute))
                or attribute in obj.obj_extra_fields
            ):
                value = None
            else:
                value = getattr(obj, attribute, None)
            default = self.fields[name].default
            if value is None and default is not fields.UnspecifiedDefault:
                value = default
            setattr(self, name, value)

    def to_primitive(self) -> dict[str, Any]:
        """The payload as it travels: ``nova_object.name/namespace/version/data``."""
        primitive = self.obj_to_primitive()
        # Consumers read the whole payload, not what changed since creation.
        _drop_changes(primitive)
        return primitive


def _drop_changes(primitive: Any) -> None:
    if isinstance(primitive, dict):
        primitive.pop("nova_object.changes", None)
        for value in primitive.values():
            _drop_changes(value)
    elif isinstance(primitive, list):
        for value in primitive:
            _drop_changes(value)
