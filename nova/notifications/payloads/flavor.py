"""FlavorPayload: a flavor, alone (flavor.*) or inside an instance's payload."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base


@base.PayloadRegistry.register
class FlavorPayload(base.NotificationPayloadBase):
    # Upstream's version: 1.4 added the description.
    VERSION = "1.4"
    SCHEMA = {
        name: ("flavor", name)
        for name in (
            "flavorid",
            "memory_mb",
            "vcpus",
            "root_gb",
            "ephemeral_gb",
            "name",
            "swap",
            "rxtx_factor",
            "vcpu_weight",
            "disabled",
            "is_public",
            "extra_specs",
            "projects",
            "description",
        )
    }
    # Defaults stand in for what an older copy of a flavor lacks.
    fields = {
        "flavorid": fields.StringField(nullable=True),
        "memory_mb": fields.IntegerField(nullable=True),
        "vcpus": fields.IntegerField(nullable=True),
        "root_gb": fields.IntegerField(nullable=True),
        "ephemeral_gb": fields.IntegerField(nullable=True),
        "name": fields.StringField(),
        "swap": fields.IntegerField(default=0),
        "rxtx_factor": fields.FloatField(nullable=True, default=1.0),
        "vcpu_weight": fields.IntegerField(nullable=True),
        "disabled": fields.BooleanField(default=False),
        "is_public": fields.BooleanField(default=True),
        "extra_specs": fields.DictOfStringsField(default={}),
        "projects": fields.ListOfStringsField(nullable=True),
        "description": fields.StringField(nullable=True),
    }
