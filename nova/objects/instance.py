"""Instances as nova-manage sees them: identity, owner, placement.

Only the fields the cell tools use exist so far (which instance, whose, on
which host); state, flavor and the rest arrive with the compute API.
"""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base


@base.NovaObjectRegistry.register
class Instance(base.NovaPersistentObject, base.NovaObject):
    """A server, stored in the database of the cell it lives in."""

    VERSION = "2.0"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(),
        "user_id": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "host": fields.StringField(nullable=True),
        "node": fields.StringField(nullable=True),
    }

    @classmethod
    def get_by_uuid(cls, context, uuid: str) -> Instance:
        """The instance, if ``context.read_deleted`` lets the caller see it."""
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(stmt.where(models.Instance.uuid == uuid)).first()
            if row is None:
                raise exception.InstanceNotFound(instance_id=uuid)
            return cls._from_db_object(context, cls(), row)


@base.NovaObjectRegistry.register
class InstanceList(base.ObjectListBase, base.NovaObject):
    VERSION = "2.0"

    fields = {"objects": fields.ListOfObjectsField("Instance")}

    @classmethod
    def _get(cls, context, stmt: sa.Select) -> InstanceList:
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt).all()
            return cls._from_db_rows(context, Instance, rows)

    @classmethod
    def get_by_host(cls, context, host: str) -> InstanceList:
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        return cls._get(
            context,
            stmt.where(models.Instance.host == host).order_by(models.Instance.id),
        )

    @classmethod
    def get_all(cls, context, limit: int | None = None) -> InstanceList:
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        return cls._get(context, stmt.order_by(models.Instance.id).limit(limit))

    @classmethod
    def get_page_oldest_first(
        cls, context, limit: int, marker: str | None = None
    ) -> InstanceList:
        """Up to ``limit`` instances in creation order, after ``marker``.

        ``marker`` is the uuid of the last instance of the previous page;
        ties on ``created_at`` are broken by id so pages never overlap.

        :raises MarkerNotFound: if no instance has the marker's uuid.
        """
        created_at, row_id = models.Instance.created_at, models.Instance.id
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        with engines.transaction(context.db_connection) as session:
            if marker is not None:
                last = session.execute(
                    sa.select(created_at, row_id).where(models.Instance.uuid == marker)
                ).first()
                if last is None:
                    raise exception.MarkerNotFound(marker=marker)
                stmt = stmt.where(
                    sa.or_(
                        created_at > last.created_at,
                        sa.and_(created_at == last.created_at, row_id > last.id),
                    )
                )
            rows = session.scalars(stmt.order_by(created_at, row_id).limit(limit)).all()
            return cls._from_db_rows(context, Instance, rows)
