"""ExceptionPayload: what went wrong, in an ``*.error`` notification or
``compute.exception``."""

from __future__ import annotations

import traceback

from oslo_versionedobjects import fields

from nova.notifications import base


@base.PayloadRegistry.register
class ExceptionPayload(base.NotificationPayloadBase):
    # Upstream's version: 1.1 added the traceback.
    VERSION = "1.1"
    fields = {
        "module_name": fields.StringField(),
        "function_name": fields.StringField(),
        "exception": fields.StringField(),
        "exception_message": fields.StringField(),
        "traceback": fields.StringField(),
    }

    @classmethod
    def from_exception(cls, exc: BaseException) -> ExceptionPayload:
        """Where ``exc`` was raised (its innermost frame) and what it says."""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        frame = tb.tb_frame if tb is not None else None
        return cls(
            module_name=frame.f_globals.get("__name__", "") if frame else "",
            function_name=frame.f_code.co_name if frame else "",
            exception=_class_name(exc),
            exception_message=_message(exc),
            traceback="".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__)
            ),
        )


# What oslo.messaging appends to the class of an exception a service
# raised on the other end of a call.
_REMOTE_SUFFIX = "_Remote"


def _class_name(exc: BaseException) -> str:
    """The class of ``exc`` as the service that raised it named it."""
    name = type(exc).__name__
    return name.removesuffix(_REMOTE_SUFFIX)


def _message(exc: BaseException) -> str:
    """Its message without the remote traceback oslo.messaging adds to
    the text of an exception raised across RPC (that is ``traceback``)."""
    format_message = getattr(exc, "format_message", None)
    return format_message() if callable(format_message) else str(exc)
