"""Migrations: the record of moving an instance between hosts (resize, cold
and live migration, evacuation), kept in the instance's cell."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from oslo_utils import uuidutils
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

_COLUMNS = (
    "uuid",
    "source_compute",
    "dest_compute",
    "source_node",
    "dest_node",
    "dest_host",
    "old_instance_type_id",
    "new_instance_type_id",
    "instance_uuid",
    "status",
    "migration_type",
    "hidden",
    "memory_total",
    "memory_processed",
    "memory_remaining",
    "disk_total",
    "disk_processed",
    "disk_remaining",
    "cross_cell_move",
    "user_id",
    "project_id",
)


@base.NovaObjectRegistry.register
class Migration(base.NovaPersistentObject, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "uuid": fields.UUIDField(),
        "source_compute": fields.StringField(nullable=True),
        "dest_compute": fields.StringField(nullable=True),
        "source_node": fields.StringField(nullable=True),
        "dest_node": fields.StringField(nullable=True),
        "dest_host": fields.StringField(nullable=True),
        "old_instance_type_id": fields.IntegerField(nullable=True),
        "new_instance_type_id": fields.IntegerField(nullable=True),
        "instance_uuid": fields.StringField(nullable=True),
        "status": fields.StringField(nullable=True),
        "migration_type": fields.StringField(nullable=True),
        "hidden": fields.BooleanField(default=False),
        "memory_total": fields.IntegerField(nullable=True),
        "memory_processed": fields.IntegerField(nullable=True),
        "memory_remaining": fields.IntegerField(nullable=True),
        "disk_total": fields.IntegerField(nullable=True),
        "disk_processed": fields.IntegerField(nullable=True),
        "disk_remaining": fields.IntegerField(nullable=True),
        "cross_cell_move": fields.BooleanField(default=False),
        "user_id": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
    }

    @base.remotable
    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if "uuid" not in self:
            self.uuid = uuidutils.generate_uuid()
        with engines.transaction(self._context.db_connection) as session:
            row = models.Migration(**base.db_values(self, _COLUMNS))
            session.add(row)
            session.flush()
        self._from_db_object(self._context, self, row)


# Migrations in these states are over; any other holds resources on hosts.
FINISHED_MIGRATION_STATUSES = (
    "confirmed",
    "reverted",
    "error",
    "failed",
    "completed",
    "cancelled",
    "done",
)

# Filters that match a column exactly (a list matches any of its values).
_EQUALITY_FILTERS = (
    "uuid",
    "status",
    "instance_uuid",
    "source_compute",
    "migration_type",
    "user_id",
    "project_id",
)


@base.NovaObjectRegistry.register
class MigrationList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("Migration")}

    @classmethod
    @base.remotable
    def get_by_filters(cls, context, filters: dict[str, Any]) -> MigrationList:
        """The cell's migrations matching ``filters``, newest first.

        ``host`` matches either end; ``hidden`` is a boolean;
        ``changes-since``/``changes-before`` bound ``updated_at``; the others
        match their column.
        """
        model = models.Migration
        criteria = []
        for name in _EQUALITY_FILTERS:
            value = filters.get(name)
            if value is None:
                continue
            values = value if isinstance(value, list) else [value]
            criteria.append(getattr(model, name).in_(values))
        if filters.get("host") is not None:
            host = filters["host"]
            criteria.append(
                sa.or_(model.source_compute == host, model.dest_compute == host)
            )
        if filters.get("hidden") is not None:
            criteria.append(model.hidden.is_(bool(filters["hidden"])))
        if filters.get("changes-since") is not None:
            criteria.append(model.updated_at >= base.db_value(filters["changes-since"]))
        if filters.get("changes-before") is not None:
            criteria.append(
                model.updated_at <= base.db_value(filters["changes-before"])
            )
        stmt = base.NovaPersistentObject._select(context, model).where(*criteria)
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(
                stmt.order_by(model.created_at.desc(), model.id.desc())
            ).all()
        return cls._from_db_rows(context, Migration, rows)

    @classmethod
    def get_count_in_progress_by_host(cls, context, host: str) -> int:
        """How many migrations, not deleted and not over, have ``host`` as
        their source or destination."""
        model = models.Migration
        return base.count_rows(
            context.db_connection,
            model.id,
            model.deleted == 0,
            sa.or_(model.source_compute == host, model.dest_compute == host),
            model.status.not_in(FINISHED_MIGRATION_STATUSES),
        )
