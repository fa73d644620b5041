"""Instance mappings: which cell each instance lives in."""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields
from sqlalchemy import orm

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base
from nova.objects.cell_mapping import CellMappingHolder

# `nova-manage cell_v2 map_instances` remembers where a batched run stopped in
# an instance_mappings row of this project (upstream's on-disk convention).
# The row's instance_uuid is the last instance's uuid with '-' turned into
# ' ': it cannot clash with that instance's own mapping under the unique key.
MIGRATION_MARKER_PROJECT_ID = "INSTANCE_MIGRATION_MARKER"


def not_queued_for_delete() -> sa.ColumnElement[bool]:
    """Mappings of instances nobody has asked to delete (rows older than
    the ``queued_for_delete`` column have NULL there)."""
    return sa.or_(
        models.InstanceMapping.queued_for_delete.is_(None),
        models.InstanceMapping.queued_for_delete == sa.false(),
    )


def owned_by(project_id: str, user_id: str | None = None) -> list:
    """Criteria: mappings of the project's instances (of the user's)."""
    criteria = [models.InstanceMapping.project_id == project_id]
    if user_id is not None:
        criteria.append(models.InstanceMapping.user_id == user_id)
    return criteria


def _select_instance_mappings() -> sa.Select:
    return sa.select(models.InstanceMapping).options(
        orm.joinedload(models.InstanceMapping.cell_mapping)
    )


@base.NovaObjectRegistry.register
class InstanceMapping(CellMappingHolder, base.NovaTimestampObject, base.NovaObject):
    """An instance and its cell; no cell yet while it is being scheduled."""

    # Version 1.0: Initial version
    # Version 1.1: Add queued_for_delete
    # Version 1.2: Add user_id
    VERSION = "1.2"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "instance_uuid": fields.UUIDField(),
        "cell_mapping": fields.ObjectField("CellMapping", nullable=True),
        "project_id": fields.StringField(),
        "user_id": fields.StringField(nullable=True),
        "queued_for_delete": fields.BooleanField(default=False),
    }

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        version = tuple(int(p) for p in target_version.split("."))
        if version < (1, 2):
            primitive.pop("user_id", None)
        if version < (1, 1):
            primitive.pop("queued_for_delete", None)

    def _db_values(self) -> dict:
        values = {}
        for name, value in self.obj_get_changes().items():
            if name == "cell_mapping":
                values["cell_id"] = None if value is None else value.id
            elif name != "id":
                values[name] = value
        return values

    def _new_row(self) -> models.InstanceMapping:
        """The row this new mapping is stored as."""
        return models.InstanceMapping(**self._db_values())

    @classmethod
    def get_by_instance_uuid(cls, context, instance_uuid: str) -> InstanceMapping:
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                _select_instance_mappings().where(
                    models.InstanceMapping.instance_uuid == instance_uuid
                )
            ).first()
            if row is None:
                raise exception.InstanceMappingNotFound(uuid=instance_uuid)
            return cls._from_db_object(context, cls(), row)

    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = self._new_row()
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            raise exception.InstanceMappingExists(uuid=self.instance_uuid) from exc
        self._from_db_object(self._context, self, row, skip={"cell_mapping"})
        self.obj_reset_changes()

    def save(self) -> None:
        values = self._db_values()
        if not values:
            return
        with engines.transaction(self._context.api_db_connection) as session:
            row = session.scalars(
                sa.select(models.InstanceMapping).where(
                    models.InstanceMapping.instance_uuid == self.instance_uuid
                )
            ).first()
            if row is None:
                raise exception.InstanceMappingNotFound(uuid=self.instance_uuid)
            for name, value in values.items():
                setattr(row, name, value)
            session.flush()
        self._from_db_object(self._context, self, row, skip={"cell_mapping"})
        self.obj_reset_changes()

    def destroy(self) -> None:
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.delete(models.InstanceMapping).where(
                    models.InstanceMapping.instance_uuid == self.instance_uuid
                )
            )
            if result.rowcount == 0:
                raise exception.InstanceMappingNotFound(uuid=self.instance_uuid)


@base.NovaObjectRegistry.register
class InstanceMappingList(base.ObjectListBase, base.NovaObject):
    VERSION = "1.3"

    fields = {"objects": fields.ListOfObjectsField("InstanceMapping")}

    @classmethod
    def _get(cls, context, *criteria) -> InstanceMappingList:
        stmt = _select_instance_mappings().where(*criteria)
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(stmt.order_by(models.InstanceMapping.id)).all()
            return cls._from_db_rows(context, InstanceMapping, rows)

    @classmethod
    def get_by_project_id(cls, context, project_id: str) -> InstanceMappingList:
        return cls._get(context, models.InstanceMapping.project_id == project_id)

    @classmethod
    def get_by_cell_id(cls, context, cell_id: int) -> InstanceMappingList:
        return cls._get(context, models.InstanceMapping.cell_id == cell_id)

    @classmethod
    def get_queued_for_delete_since(cls, context, since) -> InstanceMappingList:
        """Mappings of servers whose delete was accepted (queued for
        delete), changed at ``since`` or later."""
        return cls._get(
            context,
            models.InstanceMapping.queued_for_delete.is_(True),
            models.InstanceMapping.updated_at >= since,
        )

    @classmethod
    def get_live_in_cell(
        cls, context, cell_id: int, project_id: str | None = None
    ) -> InstanceMappingList:
        """Mappings into one cell not queued for delete, of one project
        (every project's when None)."""
        criteria = [models.InstanceMapping.cell_id == cell_id, not_queued_for_delete()]
        if project_id is not None:
            criteria.append(models.InstanceMapping.project_id == project_id)
        return cls._get(context, *criteria)

    @classmethod
    def get_counts(
        cls, context, project_id: str, user_id: str | None = None
    ) -> dict[str, int]:
        """``instances``: the project's (the user's) mapped instances not
        queued for delete, whatever cell they are in (or none yet)."""
        count = base.count_rows(
            context.api_db_connection,
            models.InstanceMapping.id,
            *owned_by(project_id, user_id),
            not_queued_for_delete(),
        )
        return {"instances": count}


def pop_migration_marker(context) -> str | None:
    """Remove and return the instance uuid where map_instances last stopped."""
    marker_model = models.InstanceMapping
    project = marker_model.project_id == MIGRATION_MARKER_PROJECT_ID
    with engines.transaction(context.api_db_connection) as session:
        munged = session.scalars(
            sa.select(marker_model.instance_uuid).where(project)
        ).first()
        session.execute(sa.delete(marker_model).where(project))
    return None if munged is None else munged.replace(" ", "-")


def save_migration_marker(context, instance_uuid: str) -> None:
    """Remember ``instance_uuid`` as where the next map_instances resumes."""
    with engines.transaction(context.api_db_connection) as session:
        session.add(
            models.InstanceMapping(
                instance_uuid=instance_uuid.replace("-", " "),
                project_id=MIGRATION_MARKER_PROJECT_ID,
                user_id=MIGRATION_MARKER_PROJECT_ID,
            )
        )
