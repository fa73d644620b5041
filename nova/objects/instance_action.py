"""Instance actions: the audit trail of what was done to an instance.

An action is one request (``create``, ``reboot``…) identified by the
instance and the request id; its events are the steps services took for it
(``conductor_schedule_and_build_instances``, ``compute_build_and_run_instance``…)
each ending in ``Success`` or ``Error`` with the reason.
"""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

EVENT_SUCCESS = "Success"
EVENT_ERROR = "Error"


def _latest_action(session, instance_uuid: str, request_id: str):
    return session.scalars(
        sa.select(models.InstanceAction)
        .where(
            models.InstanceAction.instance_uuid == instance_uuid,
            models.InstanceAction.request_id == request_id,
        )
        .order_by(models.InstanceAction.id.desc())
    ).first()


def _action_of_request(session, context, instance_uuid: str):
    """The context's request's action on the instance.

    :raises InstanceActionNotFound: the request recorded none.
    """
    action = _latest_action(session, instance_uuid, context.request_id)
    if action is None:
        raise exception.InstanceActionNotFound(
            request_id=context.request_id, instance_uuid=instance_uuid
        )
    return action


@base.NovaObjectRegistry.register
class InstanceAction(base.NovaPersistentObject, base.NovaObject):
    """One user request on an instance."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "action": fields.StringField(nullable=True),
        "instance_uuid": fields.UUIDField(nullable=True),
        "request_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "start_time": fields.DateTimeField(nullable=True),
        "finish_time": fields.DateTimeField(nullable=True),
        "message": fields.StringField(nullable=True),
    }

    @classmethod
    @base.remotable
    def action_start(
        cls, context, instance_uuid: str, action_name: str, want_result: bool = True
    ) -> InstanceAction | None:
        """Record that the context's request started ``action_name``."""
        row = models.InstanceAction(
            action=action_name,
            instance_uuid=instance_uuid,
            request_id=context.request_id,
            user_id=context.user_id,
            project_id=context.project_id,
            start_time=base.db_value(context.timestamp),
        )
        with engines.transaction(context.db_connection) as session:
            session.add(row)
            session.flush()
        return cls._from_db_object(context, cls(), row) if want_result else None

    @classmethod
    @base.remotable
    def action_finish(
        cls, context, instance_uuid: str, want_result: bool = True
    ) -> InstanceAction | None:
        """Record that the context's request on the instance is over."""
        with engines.transaction(context.db_connection) as session:
            row = _action_of_request(session, context, instance_uuid)
            row.finish_time = base.utcnow()
            session.flush()
        return cls._from_db_object(context, cls(), row) if want_result else None

    @classmethod
    @base.remotable
    def get_by_request_id(
        cls, context, instance_uuid: str, request_id: str
    ) -> InstanceAction | None:
        with engines.transaction(context.db_connection) as session:
            row = _latest_action(session, instance_uuid, request_id)
        return None if row is None else cls._from_db_object(context, cls(), row)


@base.NovaObjectRegistry.register
class InstanceActionList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("InstanceAction")}

    @classmethod
    @base.remotable
    def get_by_instance_uuid(
        cls,
        context,
        instance_uuid: str,
        limit: int | None = None,
        marker: str | None = None,
        changes_since=None,
        changes_before=None,
    ) -> InstanceActionList:
        """The instance's actions, newest first; a page of them after the
        action whose request id is ``marker``, changed in a time window.

        :raises MarkerNotFound: the instance has no action of that request.
        """
        model = models.InstanceAction
        criteria = [model.instance_uuid == instance_uuid, model.deleted == 0]
        if changes_since is not None:
            criteria.append(model.updated_at >= base.db_value(changes_since))
        if changes_before is not None:
            criteria.append(model.updated_at <= base.db_value(changes_before))
        with engines.transaction(context.db_connection) as session:
            if marker is not None:
                found = _latest_action(session, instance_uuid, marker)
                if found is None:
                    raise exception.MarkerNotFound(marker=marker)
                # Newest first: the page goes on with older actions.
                criteria.append(
                    sa.or_(
                        model.created_at < found.created_at,
                        sa.and_(
                            model.created_at == found.created_at,
                            model.id < found.id,
                        ),
                    )
                )
            stmt = (
                sa.select(model)
                .where(*criteria)
                .order_by(model.created_at.desc(), model.id.desc())
            )
            if limit is not None:
                stmt = stmt.limit(limit)
            rows = session.scalars(stmt).all()
        return cls._from_db_rows(context, InstanceAction, rows)


@base.NovaObjectRegistry.register
class InstanceActionEvent(base.NovaPersistentObject, base.NovaObject):
    """One step of an instance action, with its outcome."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "event": fields.StringField(nullable=True),
        "action_id": fields.IntegerField(nullable=True),
        "start_time": fields.DateTimeField(nullable=True),
        "finish_time": fields.DateTimeField(nullable=True),
        "result": fields.StringField(nullable=True),
        "traceback": fields.StringField(nullable=True),
        "host": fields.StringField(nullable=True),
        "details": fields.StringField(nullable=True),
    }

    @classmethod
    @base.remotable
    def event_start(
        cls,
        context,
        instance_uuid: str,
        event_name: str,
        want_result: bool = True,
        host: str | None = None,
    ) -> InstanceActionEvent | None:
        """Record the start of a step of the context's request.

        :raises InstanceActionNotFound: the request recorded no action on
            this instance.
        """
        now = base.utcnow()
        with engines.transaction(context.db_connection) as session:
            action = _action_of_request(session, context, instance_uuid)
            row = models.InstanceActionEvent(
                event=event_name, action_id=action.id, start_time=now, host=host
            )
            session.add(row)
            # Keeps the action on top of lists ordered by recent activity.
            action.updated_at = now
            session.flush()
        return cls._from_db_object(context, cls(), row) if want_result else None

    @classmethod
    @base.remotable
    def event_finish_with_failure(
        cls,
        context,
        instance_uuid: str,
        event_name: str,
        exc_val: str | None = None,
        exc_tb: str | None = None,
        want_result: bool | None = None,
    ) -> InstanceActionEvent | None:
        """Record the end of a step; with ``exc_val`` it failed.

        ``exc_val`` is what users read (the event's ``details``);
        ``exc_tb`` is the traceback, for admins. A failed step marks its
        action's message ``Error``.

        :raises InstanceActionNotFound, InstanceActionEventNotFound: the step
            was never started.
        """
        now = base.utcnow()
        with engines.transaction(context.db_connection) as session:
            action = _action_of_request(session, context, instance_uuid)
            event = models.InstanceActionEvent
            row = session.scalars(
                sa.select(event)
                .where(event.action_id == action.id, event.event == event_name)
                .order_by(event.id.desc())
            ).first()
            if row is None:
                raise exception.InstanceActionEventNotFound(
                    action_id=action.id, event=event_name
                )
            row.finish_time = now
            if exc_val is None:
                row.result = EVENT_SUCCESS
            else:
                row.result = EVENT_ERROR
                row.details = str(exc_val)
                row.traceback = exc_tb
                action.message = EVENT_ERROR
            action.updated_at = now
            session.flush()
        return cls._from_db_object(context, cls(), row) if want_result else None

    @classmethod
    def event_finish(
        cls, context, instance_uuid: str, event_name: str, want_result: bool = True
    ) -> InstanceActionEvent | None:
        """Record the successful end of a step."""
        return cls.event_finish_with_failure(
            context, instance_uuid, event_name, want_result=want_result
        )


@base.NovaObjectRegistry.register
class InstanceActionEventList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("InstanceActionEvent")}

    @classmethod
    @base.remotable
    def get_by_action(cls, context, action_id: int) -> InstanceActionEventList:
        """The action's events, oldest first."""
        model = models.InstanceActionEvent
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(
                sa.select(model)
                .where(model.action_id == action_id, model.deleted == 0)
                .order_by(model.id)
            ).all()
        return cls._from_db_rows(context, InstanceActionEvent, rows)
