"""KeypairPayload: a key pair (keypair.*, and instance.create's keypairs)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base


@base.PayloadRegistry.register
class KeypairPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    SCHEMA = {
        name: ("keypair", name)
        for name in ("user_id", "name", "public_key", "fingerprint", "type")
    }
    fields = {
        "user_id": fields.StringField(nullable=True),
        "name": fields.StringField(nullable=False),
        "fingerprint": fields.StringField(nullable=True),
        "public_key": fields.StringField(nullable=True),
        "type": fields.StringField(nullable=False),
    }
