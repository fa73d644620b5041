"""Cell mappings: the API database's record of each cell's DB and queue."""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base


@base.NovaObjectRegistry.register
class CellMapping(base.NovaTimestampObject, base.NovaObject):
    """Where a cell lives: its database connection and message queue."""

    # Version 1.0: Initial version
    # Version 1.1: Added disabled field
    VERSION = "1.1"

    # cell0 holds instances that were never scheduled; it is found by this
    # fixed uuid, never by name.
    CELL0_UUID = "00000000-0000-0000-0000-000000000000"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "uuid": fields.UUIDField(),
        "name": fields.StringField(nullable=True),
        "transport_url": fields.StringField(),
        "database_connection": fields.StringField(),
        "disabled": fields.BooleanField(default=False),
    }

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        if tuple(int(p) for p in target_version.split(".")) < (1, 1):
            primitive.pop("disabled", None)

    @property
    def identity(self) -> str:
        """How logs name the cell: ``uuid(name)``, or the uuid alone."""
        if "name" in self and self.name:
            return f"{self.uuid}({self.name})"
        return self.uuid

    def is_cell0(self) -> bool:
        return "uuid" in self and self.uuid == self.CELL0_UUID

    @classmethod
    def get_by_uuid(cls, context, uuid: str) -> CellMapping:
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                sa.select(models.CellMapping).where(models.CellMapping.uuid == uuid)
            ).first()
            if row is None:
                raise exception.CellMappingNotFound(uuid=uuid)
            return cls._from_db_object(context, cls(), row)

    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        values = self.obj_get_changes()
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = models.CellMapping(**values)
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            raise exception.CellMappingExists(uuid=self.uuid) from exc
        self._from_db_object(self._context, self, row)

    def save(self) -> None:
        changes = self.obj_get_changes()
        changes.pop("id", None)
        if not changes:
            return
        with engines.transaction(self._context.api_db_connection) as session:
            row = session.scalars(
                sa.select(models.CellMapping).where(
                    models.CellMapping.uuid == self.uuid
                )
            ).first()
            if row is None:
                raise exception.CellMappingNotFound(uuid=self.uuid)
            for name, value in changes.items():
                setattr(row, name, value)
            session.flush()
        self._from_db_object(self._context, self, row)

    def destroy(self, with_host_and_instance_mappings: bool = False) -> None:
        """Delete the cell mapping.

        With ``with_host_and_instance_mappings`` the cell's host and instance
        mappings go too, in the same transaction: either all of them are
        deleted or nothing is.
        """
        with engines.transaction(self._context.api_db_connection) as session:
            if with_host_and_instance_mappings:
                for model in (models.HostMapping, models.InstanceMapping):
                    session.execute(sa.delete(model).where(model.cell_id == self.id))
            result = session.execute(
                sa.delete(models.CellMapping).where(
                    models.CellMapping.uuid == self.uuid
                )
            )
            if result.rowcount == 0:
                raise exception.CellMappingNotFound(uuid=self.uuid)


@base.NovaObjectRegistry.register
class CellMappingList(base.ObjectListBase, base.NovaObject):
    VERSION = "1.1"

    fields = {"objects": fields.ListOfObjectsField("CellMapping")}

    @classmethod
    def get_all(cls, context) -> CellMappingList:
        """All cells, oldest first."""
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(
                sa.select(models.CellMapping).order_by(models.CellMapping.id)
            ).all()
            return cls._from_db_rows(context, CellMapping, rows)

    @classmethod
    def get_by_disabled(cls, context, disabled: bool) -> CellMappingList:
        """The enabled (or the disabled) cells, oldest first."""
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(
                sa.select(models.CellMapping)
                .where(models.CellMapping.disabled == disabled)
                .order_by(models.CellMapping.id)
            ).all()
            return cls._from_db_rows(context, CellMapping, rows)


class CellMappingHolder:
    """Mixin for mappings whose ``cell_mapping`` field comes from a joined row."""

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        super()._from_db_object(context, obj, db_row, skip={"cell_mapping", *skip})
        if "cell_mapping" not in skip:
            row = db_row.cell_mapping
            obj.cell_mapping = (
                None
                if row is None
                else CellMapping._from_db_object(context, CellMapping(), row)
            )
            obj.obj_reset_changes(["cell_mapping"])
        return obj
