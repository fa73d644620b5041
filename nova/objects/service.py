"""Services: the nova-* processes of a cell, one row per host and binary.

Only the fields host discovery uses exist so far; the rest (version,
last_seen_up, forced_down, …) arrive with the service framework.
"""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.db import engines
from nova.db.main import models
from nova.objects import base


@base.NovaObjectRegistry.register
class Service(base.NovaPersistentObject, base.NovaObject):
    """A nova-* process (``binary``) running on ``host``."""

    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "host": fields.StringField(nullable=True),
        "binary": fields.StringField(nullable=True),
        "topic": fields.StringField(nullable=True),
        "disabled": fields.BooleanField(),
        "disabled_reason": fields.StringField(nullable=True),
    }


@base.NovaObjectRegistry.register
class ServiceList(base.ObjectListBase, base.NovaObject):
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("Service")}

    @classmethod
    def get_by_binary(
        cls, context, binary: str, include_disabled: bool = False
    ) -> ServiceList:
        stmt = base.NovaPersistentObject._select(context, models.Service).where(
            models.Service.binary == binary
        )
        if not include_disabled:
            stmt = stmt.where(models.Service.disabled.is_not(True))
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt.order_by(models.Service.id)).all()
            return cls._from_db_rows(context, Service, rows)
