"""AggregatePayload: a host aggregate (aggregate.*)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base


@base.PayloadRegistry.register
class AggregatePayload(base.NotificationPayloadBase):
    VERSION = "1.1"
    SCHEMA = {
        name: ("aggregate", name)
        for name in ("id", "uuid", "name", "hosts", "metadata")
    }
    fields = {
        # None until the aggregate is stored (aggregate.create.start).
        "id": fields.IntegerField(nullable=True),
        "uuid": fields.UUIDField(nullable=False),
        "name": fields.StringField(),
        "hosts": fields.ListOfStringsField(nullable=True),
        "metadata": fields.DictOfStringsField(nullable=True, default={}),
    }
