"""ComputeTaskPayload: a conductor task that failed for an instance
(compute_task.<task>.error)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base

# Registered for the fields below.
from nova.notifications.payloads.exception import ExceptionPayload  # noqa: F401
from nova.notifications.payloads.request_spec import RequestSpecPayload  # noqa: F401


@base.PayloadRegistry.register
class ComputeTaskPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    fields = {
        "instance_uuid": fields.UUIDField(),
        # An instance older than request specs has none.
        "request_spec": fields.ObjectField("RequestSpecPayload", nullable=True),
        "state": fields.StringField(nullable=True),
        "reason": fields.ObjectField("ExceptionPayload"),
    }
