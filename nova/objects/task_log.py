"""Task logs: which host ran a periodic task over which audit period,
how many items it handled and how many failed."""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

RUNNING = "RUNNING"
DONE = "DONE"
# The message column's width.
MAX_MESSAGE_LENGTH = 255


def _period(model, task_name, period_beginning, period_ending):
    return (
        model.task_name == task_name,
        model.period_beginning == base.datetime_arg(period_beginning),
        model.period_ending == base.datetime_arg(period_ending),
        model.deleted == 0,
    )


@base.NovaObjectRegistry.register
class TaskLog(base.NovaPersistentObject, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "task_name": fields.StringField(),
        "state": fields.StringField(),
        "host": fields.StringField(),
        "period_beginning": fields.DateTimeField(),
        "period_ending": fields.DateTimeField(),
        "message": fields.StringField(),
        "task_items": fields.IntegerField(),
        "errors": fields.IntegerField(),
    }

    @classmethod
    @base.remotable
    def get(
        cls, context, task_name, period_beginning, period_ending, host, state=None
    ) -> TaskLog | None:
        """The host's log of that task and period (in ``state``), or None."""
        model = models.TaskLog
        criteria = [
            *_period(model, task_name, period_beginning, period_ending),
            model.host == host,
        ]
        if state is not None:
            criteria.append(model.state == state)
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(sa.select(model).where(*criteria)).first()
        return None if row is None else cls._from_db_object(context, cls(), row)

    def _message(self) -> str:
        return (self.message or "")[:MAX_MESSAGE_LENGTH]

    @base.remotable
    def begin_task(self) -> None:
        """Record that this host started the task for the period.

        :raises TaskAlreadyRunning: the host already has a log for it.
        """
        row = models.TaskLog(
            task_name=self.task_name,
            state=RUNNING,
            host=self.host,
            period_beginning=base.db_value(self.period_beginning),
            period_ending=base.db_value(self.period_ending),
            message=self._message(),
            task_items=self.task_items if "task_items" in self else 0,
            errors=0,
        )
        try:
            with engines.transaction(self._context.db_connection) as session:
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            raise exception.TaskAlreadyRunning(
                task_name=self.task_name, host=self.host
            ) from exc
        self._from_db_object(self._context, self, row)

    @base.remotable
    def end_task(self) -> None:
        """Mark the host's log of the period DONE, with its errors and
        final message.

        :raises TaskNotRunning: the host never began it.
        """
        model = models.TaskLog
        values = {
            "state": DONE,
            "errors": self.errors if "errors" in self else 0,
            "message": self._message(),
            "updated_at": base.utcnow(),
        }
        criteria = (
            *_period(model, self.task_name, self.period_beginning, self.period_ending),
            model.host == self.host,
        )
        with engines.transaction(self._context.db_connection) as session:
            updated = session.execute(sa.update(model).where(*criteria).values(values))
            if updated.rowcount != 1:
                raise exception.TaskNotRunning(task_name=self.task_name, host=self.host)
            row = session.scalars(sa.select(model).where(*criteria)).one()
        self._from_db_object(self._context, self, row)


@base.NovaObjectRegistry.register
class TaskLogList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("TaskLog")}

    @classmethod
    @base.remotable
    def get_all(
        cls, context, task_name, period_beginning, period_ending, host=None, state=None
    ) -> TaskLogList:
        """Every host's log of that task and period (of ``host``, in
        ``state`` when given), by host."""
        model = models.TaskLog
        stmt = sa.select(model).where(
            *_period(model, task_name, period_beginning, period_ending)
        )
        if host is not None:
            stmt = stmt.where(model.host == host)
        if state is not None:
            stmt = stmt.where(model.state == state)
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt.order_by(model.host, model.id)).all()
        return cls._from_db_rows(context, TaskLog, rows)
