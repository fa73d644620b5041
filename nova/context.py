"""The request context: who is asking, and which databases their work hits.

A context names the caller (user, project, roles, admin flag) and carries the
request ids that follow a request across services. It also decides where
database work goes: API objects use the API database
(``[api_database] connection``); cell objects use the cell database the
context is targeted at with :func:`target_cell`, or ``[database] connection``
when it is not targeted. Targeting returns a new context and never changes the
one it was given, so threads can target different cells at the same time.
"""

from __future__ import annotations

import contextlib
import copy
import datetime
from collections.abc import Iterator
from typing import Any

from oslo_context import context as oslo_context

import nova.conf
from nova import exception

CONF = nova.conf.CONF

READ_DELETED_VALUES = ("no", "yes", "only")


def _utcnow() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


class RequestContext(oslo_context.RequestContext):
    """Security and routing context of one request or one admin operation."""

    def __init__(
        self,
        user_id: str | None = None,
        project_id: str | None = None,
        is_admin: bool | None = None,
        read_deleted: str = "no",
        remote_address: str | None = None,
        timestamp: datetime.datetime | str | None = None,
        quota_class: str | None = None,
        service_catalog: list[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            user_id=user_id, project_id=project_id, is_admin=bool(is_admin), **kwargs
        )
        self.read_deleted = read_deleted
        self.remote_address = remote_address
        if timestamp is None:
            timestamp = _utcnow()
        elif isinstance(timestamp, str):
            timestamp = datetime.datetime.fromisoformat(timestamp)
        self.timestamp = timestamp
        self.quota_class = quota_class
        # Only the entries other services need (volume, network, image).
        self.service_catalog = service_catalog or []
        # Where cell-database work of this context goes; set by target_cell.
        self.cell_uuid: str | None = None
        self._db_connection: str | None = None
        # The message queue of the targeted cell: RPC APIs send compute and
        # cell-conductor messages of a targeted context there. None means
        # this service's own ``transport_url``. Never sent over RPC.
        self.transport_url: str | None = None

    @property
    def read_deleted(self) -> str:
        """Whether queries see live rows ("no"), all ("yes") or only deleted."""
        return self._read_deleted

    @read_deleted.setter
    def read_deleted(self, value: str) -> None:
        if value not in READ_DELETED_VALUES:
            raise ValueError(
                f"read_deleted can only be one of {READ_DELETED_VALUES}, not {value!r}"
            )
        self._read_deleted = value

    @property
    def api_db_connection(self) -> str:
        """URL of the API database (``[api_database] connection``)."""
        connection = CONF.api_database.connection
        if not connection:
            raise exception.DatabaseNotConfigured(group="api_database")
        return connection

    @property
    def db_connection(self) -> str:
        """URL of the cell database this context targets.

        An untargeted context uses ``[database] connection``, the local cell.
        """
        if self._db_connection:
            return self._db_connection
        connection = CONF.database.connection
        if not connection:
            raise exception.DatabaseNotConfigured(group="database")
        return connection

    def elevated(self, read_deleted: str | None = None) -> RequestContext:
        """A copy of this context with admin rights."""
        context = copy.copy(self)
        context.is_admin = True
        context.roles = list(self.roles)
        if "admin" not in context.roles:
            context.roles.append("admin")
        if read_deleted is not None:
            context.read_deleted = read_deleted
        return context

    def to_dict(self) -> dict[str, Any]:
        values = super().to_dict()
        values.update(
            user_id=self.user_id,
            user_name=self.user_name,
            project_name=self.project_name,
            read_deleted=self.read_deleted,
            remote_address=self.remote_address,
            timestamp=self.timestamp.isoformat(),
            quota_class=self.quota_class,
            service_catalog=self.service_catalog,
        )
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any], **kwargs: Any) -> RequestContext:
        kwargs.setdefault("user_id", values.get("user_id", values.get("user")))
        kwargs.setdefault("read_deleted", values.get("read_deleted", "no"))
        for key in ("remote_address", "timestamp", "quota_class", "service_catalog"):
            kwargs.setdefault(key, values.get(key))
        return super().from_dict(values, **kwargs)

    def __repr__(self) -> str:
        return (
            f"<RequestContext request_id={self.request_id} user={self.user_id} "
            f"project={self.project_id} admin={self.is_admin} cell={self.cell_uuid}>"
        )


def get_admin_context(read_deleted: str = "no") -> RequestContext:
    """An admin context for services and tools acting on their own behalf.

    It is not stored as the thread's current context (``overwrite=False``):
    a tool's background work must not be mistaken for a user's request.
    """
    return RequestContext(is_admin=True, read_deleted=read_deleted, overwrite=False)


@contextlib.contextmanager
def target_cell(context: RequestContext, cell_mapping) -> Iterator[RequestContext]:
    """Yield a copy of ``context`` whose cell-database work hits ``cell_mapping``.

    ``cell_mapping`` is a :class:`nova.objects.CellMapping` (anything with
    ``uuid`` and ``database_connection``). Its ``transport_url``, when it
    has one, becomes the context's: RPC to the cell's computes and
    conductor goes to the cell's message queue.
    """
    targeted = copy.copy(context)
    targeted.cell_uuid = cell_mapping.uuid
    targeted._db_connection = cell_mapping.database_connection
    targeted.transport_url = getattr(cell_mapping, "transport_url", None) or None
    yield targeted
