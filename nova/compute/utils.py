"""Helpers the compute and conductor managers share: faults and action events."""

from __future__ import annotations

import traceback

import oslo_messaging
from oslo_log import log as logging

from nova import exception, objects

LOG = logging.getLogger(__name__)


def exception_message(exc: BaseException) -> str:
    """What a user may read about ``exc``: a NovaException's message, what
    a lost RPC reply means, or only the type of any other error (its text
    may hold internals)."""
    if isinstance(exc, exception.NovaException):
        return exc.format_message()
    if isinstance(exc, oslo_messaging.MessagingTimeout):
        return (
            "MessagingTimeout: a nova service did not answer in time (it may "
            "have stopped while handling the request)"
        )
    return type(exc).__name__


def add_instance_fault_from_exc(
    context, instance, exc: BaseException, host: str | None = None
):
    """Record ``exc`` as the instance's newest fault.

    The message is :func:`exception_message`; the details, which only
    admins see, hold the full text and traceback.
    """
    code = getattr(exc, "code", 500)
    details = "".join(traceback.format_exception(exc))
    fault = objects.InstanceFault(
        context,
        instance_uuid=instance.uuid,
        code=code if isinstance(code, int) else 500,
        message=exception_message(exc),
        details=details,
        host=host,
    )
    fault.create()
    return fault


class EventReporter:
    """Records one step of the context's instance action, with its outcome.

    ::

        with EventReporter(context, "compute_build_and_run_instance",
                           host, instance.uuid):
            ...

    An exception leaving the block marks the event ``Error`` with the
    exception's user-facing message and traceback, and propagates. A
    request that recorded no action (an internal one) records no events.
    """

    def __init__(self, context, event_name: str, host: str, *instance_uuids: str):
        self.context = context
        self.event_name = event_name
        self.host = host
        self.instance_uuids = instance_uuids
        self._started: list[str] = []

    def __enter__(self) -> EventReporter:
        for uuid in self.instance_uuids:
            try:
                objects.InstanceActionEvent.event_start(
                    self.context,
                    uuid,
                    self.event_name,
                    want_result=False,
                    host=self.host,
                )
            except exception.InstanceActionNotFound:
                LOG.debug(
                    "No action of request %s on %s; not recording %s",
                    self.context.request_id,
                    uuid,
                    self.event_name,
                )
                continue
            self._started.append(uuid)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        message = tb = None
        if exc_val is not None:
            message = exception_message(exc_val)
            tb = "".join(traceback.format_exception(exc_val))
        for uuid in self._started:
            try:
                objects.InstanceActionEvent.event_finish_with_failure(
                    self.context,
                    uuid,
                    self.event_name,
                    exc_val=message,
                    exc_tb=tb,
                    want_result=False,
                )
            except Exception:  # the outcome of the step matters more
                LOG.exception("Could not record the end of %s", self.event_name)
        return False
