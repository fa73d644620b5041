"""Instance faults: what went wrong with an instance, for its owner to read."""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

# The message column's width.
MAX_MESSAGE_LENGTH = 255


@base.NovaObjectRegistry.register
class InstanceFault(base.NovaPersistentObject, base.NovaObject):
    """An error recorded against an instance (shown as the server's fault)."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "instance_uuid": fields.UUIDField(),
        "code": fields.IntegerField(),
        "message": fields.StringField(nullable=True),
        "details": fields.StringField(nullable=True),
        "host": fields.StringField(nullable=True),
    }

    @base.remotable
    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        values = base.db_values(
            self, ("instance_uuid", "code", "message", "details", "host")
        )
        if values.get("message"):
            values["message"] = values["message"][:MAX_MESSAGE_LENGTH]
        with engines.transaction(self._context.db_connection) as session:
            row = models.InstanceFault(**values)
            session.add(row)
            session.flush()
        self._from_db_object(self._context, self, row)


@base.NovaObjectRegistry.register
class InstanceFaultList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("InstanceFault")}

    @classmethod
    @base.remotable
    def get_by_instance_uuids(
        cls, context, instance_uuids: list[str], latest: bool = False
    ) -> InstanceFaultList:
        """Faults of the instances, newest first; only the newest of each
        instance with ``latest``."""
        if not instance_uuids:
            return cls._from_db_rows(context, InstanceFault, [])
        model = models.InstanceFault
        stmt = (
            sa.select(model)
            .where(model.instance_uuid.in_(instance_uuids), model.deleted == 0)
            .order_by(model.created_at.desc(), model.id.desc())
        )
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt).all()
        if latest:
            newest = {}
            for row in rows:
                newest.setdefault(row.instance_uuid, row)
            rows = list(newest.values())
        return cls._from_db_rows(context, InstanceFault, rows)
