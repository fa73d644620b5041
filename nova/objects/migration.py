"""Migrations: the record of moving an instance between hosts (resize, cold
and live migration, evacuation), kept in the instance's cell."""

from __future__ import annotations

import datetime
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
    # Version 1.1: save, get_by_id_and_instance, get_by_instance_and_status
    VERSION = "1.1"

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

    @base.remotable
    def save(self) -> None:
        """Write the changed fields (the status, the destination, the
        progress) and bump ``updated_at``."""
        changes = {
            name: base.db_value(getattr(self, name))
            for name in self.obj_what_changed()
            if name in _COLUMNS
        }
        if not changes:
            return
        model = models.Migration
        with engines.transaction(self._context.db_connection) as session:
            row = session.get(model, self.id)
            if row is None or row.deleted:
                raise exception.MigrationNotFound(migration_id=self.id)
            for name, value in changes.items():
                setattr(row, name, value)
            row.updated_at = base.utcnow()
            session.flush()
        self._from_db_object(self._context, self, row)

    @classmethod
    @base.remotable
    def get_by_id_and_instance(cls, context, migration_id: int, instance_uuid: str):
        """:raises MigrationNotFoundForInstance: no such migration of it."""
        model = models.Migration
        found = cls._get_first(
            context,
            model,
            model.id == migration_id,
            model.instance_uuid == instance_uuid,
        )
        if found is None:
            raise exception.MigrationNotFoundForInstance(
                migration_id=migration_id, instance_id=instance_uuid
            )
        return found

    @classmethod
    @base.remotable
    def get_by_instance_and_status(cls, context, instance_uuid: str, status: str):
        """The instance's newest migration in ``status``.

        :raises MigrationNotFoundByStatus: it has none.
        """
        model = models.Migration
        stmt = (
            base.NovaPersistentObject._select(context, model)
            .where(model.instance_uuid == instance_uuid, model.status == status)
            .order_by(model.created_at.desc(), model.id.desc())
        )
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(stmt).first()
        if row is None:
            raise exception.MigrationNotFoundByStatus(
                instance_id=instance_uuid, status=status
            )
        return cls._from_db_object(context, cls(), row)


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

# The migration_type of an evacuation's record.
EVACUATION = "evacuation"
# A live migration in these may be aborted before it runs (2.65).
QUEUED_LIVE_MIGRATION_STATUSES = ("queued", "preparing")

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
    # Version 1.1: get_unconfirmed_by_dest_compute, get_in_progress_by_instance
    VERSION = "1.1"

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

    @classmethod
    @base.remotable
    def get_unconfirmed_by_dest_compute(
        cls, context, confirm_window: int, dest_compute: str
    ) -> MigrationList:
        """Resizes to ``dest_compute`` waiting (status ``finished``) for
        their confirmation longer than ``confirm_window`` seconds."""
        model = models.Migration
        cutoff = base.utcnow() - datetime.timedelta(seconds=confirm_window)
        stmt = base.NovaPersistentObject._select(context, model).where(
            model.status == "finished",
            model.dest_compute == dest_compute,
            model.updated_at <= cutoff,
        )
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt.order_by(model.id)).all()
        return cls._from_db_rows(context, Migration, rows)

    @classmethod
    @base.remotable
    def get_in_progress_by_instance(
        cls, context, instance_uuid: str, migration_type: str | None = None
    ) -> MigrationList:
        """The instance's migrations that are not over (of
        ``migration_type`` when given), newest first."""
        model = models.Migration
        criteria = [
            model.instance_uuid == instance_uuid,
            model.status.not_in(FINISHED_MIGRATION_STATUSES),
        ]
        if migration_type is not None:
            criteria.append(model.migration_type == migration_type)
        stmt = base.NovaPersistentObject._select(context, model).where(*criteria)
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(
                stmt.order_by(model.created_at.desc(), model.id.desc())
            ).all()
        return cls._from_db_rows(context, Migration, rows)
