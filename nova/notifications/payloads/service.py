"""ServiceStatusPayload: a service record (service.create/update/delete)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base


@base.PayloadRegistry.register
class ServiceStatusPayload(base.NotificationPayloadBase):
    # Upstream's version: 1.1 added the uuid.
    VERSION = "1.1"
    SCHEMA = {
        name: ("service", name)
        for name in (
            "host",
            "binary",
            "topic",
            "report_count",
            "disabled",
            "disabled_reason",
            "availability_zone",
            "last_seen_up",
            "forced_down",
            "version",
            "uuid",
        )
    }
    fields = {
        "host": fields.StringField(nullable=True),
        "binary": fields.StringField(nullable=True),
        "topic": fields.StringField(nullable=True),
        "report_count": fields.IntegerField(),
        "disabled": fields.BooleanField(),
        "disabled_reason": fields.StringField(nullable=True),
        "availability_zone": fields.StringField(nullable=True),
        "last_seen_up": fields.DateTimeField(nullable=True),
        "forced_down": fields.BooleanField(),
        "version": fields.IntegerField(),
        "uuid": fields.UUIDField(),
    }
