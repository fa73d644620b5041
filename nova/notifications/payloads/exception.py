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
            exception=type(exc).__name__,
            exception_message=str(exc),
            traceback="".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__)
            ),
        )
