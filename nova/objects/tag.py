"""Tags: short strings users attach to an instance."""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

# The API refuses more than this many tags on one instance.
MAX_TAG_COUNT = 50


@base.NovaObjectRegistry.register
class Tag(base.NovaObject):
    """One tag of one resource (an instance uuid)."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "resource_id": fields.StringField(),
        "tag": fields.StringField(),
    }

    @base.remotable
    def create(self) -> None:
        with engines.transaction(self._context.db_connection) as session:
            exists = session.get(models.Tag, (self.resource_id, self.tag))
            if exists is None:
                session.add(models.Tag(resource_id=self.resource_id, tag=self.tag))
        self.obj_reset_changes()

    @classmethod
    @base.remotable
    def exists(cls, context, resource_id: str, name: str) -> bool:
        with engines.transaction(context.db_connection) as session:
            return session.get(models.Tag, (resource_id, name)) is not None

    @classmethod
    @base.remotable
    def destroy(cls, context, resource_id: str, name: str) -> None:
        with engines.transaction(context.db_connection) as session:
            result = session.execute(
                sa.delete(models.Tag).where(
                    models.Tag.resource_id == resource_id, models.Tag.tag == name
                )
            )
            if result.rowcount == 0:
                raise exception.TagNotFound(instance_id=resource_id, tag=name)


@base.NovaObjectRegistry.register
class TagList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("Tag")}

    @classmethod
    def from_names(cls, context, resource_id: str | None, names) -> TagList:
        """A list of (not yet stored) tags of one resource; ``resource_id``
        may be None until the instance has its uuid."""
        owner = {} if resource_id is None else {"resource_id": resource_id}
        tags = cls(objects=[Tag(context, tag=name, **owner) for name in names])
        tags._context = context
        return tags

    @classmethod
    @base.remotable
    def get_by_resource_id(cls, context, resource_id: str) -> TagList:
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(
                sa.select(models.Tag)
                .where(models.Tag.resource_id == resource_id)
                .order_by(models.Tag.tag)
            ).all()
            return cls._from_db_rows(context, Tag, rows)

    @classmethod
    @base.remotable
    def create(cls, context, resource_id: str, tags: list[str]) -> TagList:
        """Replace the resource's tags with ``tags``."""
        with engines.transaction(context.db_connection) as session:
            session.execute(
                sa.delete(models.Tag).where(models.Tag.resource_id == resource_id)
            )
            for name in dict.fromkeys(tags):
                session.add(models.Tag(resource_id=resource_id, tag=name))
        return cls.from_names(context, resource_id, sorted(set(tags)))

    @classmethod
    @base.remotable
    def destroy(cls, context, resource_id: str) -> None:
        with engines.transaction(context.db_connection) as session:
            session.execute(
                sa.delete(models.Tag).where(models.Tag.resource_id == resource_id)
            )
