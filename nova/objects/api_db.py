"""Reading objects kept in the API database, each row loaded together with
its child rows (an aggregate's hosts and metadata, a group's policy and
members, a flavor's extra specs and projects).

An object class names its model and relationships and fills its fields from
a row; finding one, listing several and raising the right "not found" is
written once here.
"""

from __future__ import annotations

from typing import Any, ClassVar

import sqlalchemy as sa
from sqlalchemy import orm

from nova import exception
from nova.db import engines


class APIDBObject:
    """Mixin for a NovaObject stored in the API database."""

    #: The SQLAlchemy model of the object's table.
    _model: ClassVar[type]
    #: Relationships of the model loaded with every row.
    _loaded_with: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def _load_options(cls) -> list:
        """Query options loading ``_loaded_with`` along with the rows."""
        return [
            orm.selectinload(getattr(cls._model, name)) for name in cls._loaded_with
        ]

    @classmethod
    def _select(cls) -> sa.Select:
        return sa.select(cls._model).options(*cls._load_options())

    @classmethod
    def _find_row(
        cls, session: orm.Session, criterion: Any, not_found: exception.NotFound
    ) -> Any:
        """The first row matching ``criterion``; ``not_found`` if none."""
        row = session.scalars(cls._select().where(criterion)).first()
        if row is None:
            raise not_found
        return row

    @classmethod
    def _get(cls, context, criterion: Any, not_found: exception.NotFound):
        """The object of the row matching ``criterion``."""
        with engines.transaction(context.api_db_connection) as session:
            row = cls._find_row(session, criterion, not_found)
            return cls._from_db_object(context, cls(), row)

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        obj._fill_from_row(db_row)
        obj._context = context
        obj.obj_reset_changes()
        return obj

    def _fill_from_row(self, db_row: Any) -> None:
        """Set every field from ``db_row`` and its loaded relationships."""
        raise NotImplementedError


class APIDBObjectList:
    """Mixin for the list object of an :class:`APIDBObject` class."""

    #: The class of the listed objects.
    _item_class: ClassVar[type[APIDBObject]]

    @classmethod
    def _get(cls, context, *criteria: Any):
        """Objects of every row matching all ``criteria``, in id order."""
        item = cls._item_class
        query = item._select().where(*criteria).order_by(item._model.id)
        with engines.transaction(context.api_db_connection) as session:
            return cls._from_db_rows(context, item, session.scalars(query))
