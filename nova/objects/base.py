"""Base classes of Nova's versioned objects.

Objects are the unit of data services exchange over RPC and the way code
reads and writes the databases. Each carries a version; a service that
receives a newer version than it knows asks for (or performs) a backport, so
old and new services interoperate during a rolling upgrade.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from typing import Any

import netaddr
import sqlalchemy as sa
from oslo_utils import timeutils
from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields

from nova.db import engines

# Methods that run where the database is. In nova-compute, which has no
# database, NovaObject.indirection_api is the conductor's RPC API and these
# calls travel to the cell conductor instead. Class methods stack
# ``@classmethod`` over ``@remotable``.
remotable = ovo_base.remotable


class NovaObjectRegistry(ovo_base.VersionedObjectRegistry):
    """Registry of every Nova object class and version.

    Registering also publishes the newest version of each class as an
    attribute of :mod:`nova.objects` (``nova.objects.CellMapping``), which is
    how the rest of the code refers to object classes.
    """

    def registration_hook(self, cls: type[ovo_base.VersionedObject], index: int):
        from nova import objects

        name = cls.obj_name()
        current = getattr(objects, name, None)
        if current is None or _version(cls) >= _version(current):
            setattr(objects, name, cls)


def _version(cls: type[ovo_base.VersionedObject]) -> tuple[int, ...]:
    return tuple(int(part) for part in cls.VERSION.split("."))


class NovaObject(ovo_base.VersionedObject):
    """Base of all Nova objects; sets the serialization namespace."""

    OBJ_SERIAL_NAMESPACE = "nova_object"
    OBJ_PROJECT_NAMESPACE = "nova"

    @classmethod
    def _from_db_object(
        cls,
        context: Any,
        obj: NovaObject,
        db_row: Any,
        skip: Iterable[str] = (),
    ) -> NovaObject:
        """Fill ``obj`` from a database row whose columns share field names.

        Fields in ``skip`` (usually nested objects) are left to the caller.
        A NULL in a column whose field is not nullable (rows older than the
        code that fills it) gives the field's default, or leaves it unset.
        """
        skipped = set(skip)
        for name, field in obj.fields.items():
            if name in skipped:
                continue
            value = getattr(db_row, name)
            if value is None and not field.nullable:
                if field.default is fields.UnspecifiedDefault:
                    continue
                value = field.default
            setattr(obj, name, value)
        obj._context = context
        obj.obj_reset_changes()
        return obj


class NovaTimestampObject(ovo_base.TimestampedObject):
    """Objects stored in the API database: created_at and updated_at."""


class NovaPersistentObject:
    """Objects stored in a cell database, soft-deleted as upstream does.

    The database keeps ``deleted`` as an integer (0 while live, the row's id
    once deleted); the object exposes it as a boolean.
    """

    fields = {
        "created_at": fields.DateTimeField(nullable=True),
        "updated_at": fields.DateTimeField(nullable=True),
        "deleted_at": fields.DateTimeField(nullable=True),
        "deleted": fields.BooleanField(default=False),
    }

    @staticmethod
    def _select(context: Any, model: type) -> sa.Select:
        """``SELECT model`` seeing the rows ``context.read_deleted`` allows."""
        stmt = sa.select(model)
        if context.read_deleted == "no":
            stmt = stmt.where(model.deleted == 0)
        elif context.read_deleted == "only":
            stmt = stmt.where(model.deleted != 0)
        return stmt

    @classmethod
    def _get_first(cls, context: Any, model: type, *criteria: Any):
        """The first visible row of ``model`` matching ``criteria`` as an
        object of this class, or None."""
        stmt = NovaPersistentObject._select(context, model).where(*criteria)
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(stmt).first()
        return None if row is None else cls._from_db_object(context, cls(), row)


def count_rows(connection: str, column: Any, *criteria: Any) -> int:
    """How many rows with a non-NULL ``column`` match all ``criteria``
    (tables named in them are joined as the criteria say)."""
    stmt = sa.select(sa.func.count(column)).where(*criteria)
    with engines.transaction(connection) as session:
        return session.scalar(stmt) or 0


class ObjectListBase(ovo_base.ObjectListBase):
    """Base of the ``…List`` objects."""

    @classmethod
    def _from_db_rows(
        cls, context: Any, item_cls: type[NovaObject], db_rows: Iterable[Any]
    ):
        """A list object holding one ``item_cls`` object per database row."""
        items = [item_cls._from_db_object(context, item_cls(), row) for row in db_rows]
        result = cls(objects=items)
        result._context = context
        result.obj_reset_changes()
        return result


class NovaObjectSerializer(ovo_base.VersionedObjectSerializer):
    """Turns Nova objects into primitives and back for RPC."""

    OBJ_BASE_CLASS = NovaObject


def database_unreachable(exc: BaseException) -> bool:
    """Whether ``exc``, raised by an object's database call, says the
    database server could not be reached (as opposed to a refused
    statement): for callers above the objects, which never see the engines."""
    return engines.is_unreachable(exc)


def utcnow() -> datetime.datetime:
    """Now in UTC, naive, as DateTime columns store it."""
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def db_value(value: Any) -> Any:
    """An object field value as a column stores it.

    Object datetimes are timezone-aware (UTC) while columns hold naive UTC;
    IP addresses are stored as text.
    """
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value
    if isinstance(value, netaddr.IPAddress):
        return str(value)
    return value


def datetime_arg(value: datetime.datetime | str | None) -> datetime.datetime | None:
    """A datetime argument of a remotable method as a column stores it:
    through the conductor it arrives as an ISO 8601 string."""
    if isinstance(value, str):
        value = timeutils.parse_isotime(value)
    return db_value(value)


def db_values(obj: NovaObject, names: Iterable[str]) -> dict[str, Any]:
    """Column values of the set fields among ``names``."""
    return {name: db_value(getattr(obj, name)) for name in names if name in obj}


def obj_to_json(obj: NovaObject | None) -> str | None:
    """An object serialized into a text column (with its version)."""
    if obj is None:
        return None
    return json.dumps(obj.obj_to_primitive(), default=str)


def obj_from_json(context: Any, text: str | None) -> NovaObject | None:
    """The object a text column holds, bound to ``context``."""
    if not text:
        return None
    return NovaObject.obj_from_primitive(json.loads(text), context=context)


class JsonField(fields.AutoTypedField):
    """A field holding any JSON-compatible value (network info, limits)."""

    AUTO_TYPE = fields.FieldType()


class Secret(fields.String):
    """A string (a password) that RPC carries as it is but that never shows
    in its object's repr or str, and so in no log line.

    oslo's SensitiveString masks only ``password=...`` patterns inside the
    value, not a bare password.
    """

    @staticmethod
    def stringify(value: str) -> str:
        return "'***'"


class SecretField(fields.AutoTypedField):
    AUTO_TYPE = Secret()
