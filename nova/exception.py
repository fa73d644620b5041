"""Nova's exception hierarchy.

Every error the services raise on purpose is a ``NovaException`` subclass. A
class declares a message template (``msg_fmt``) filled from keyword arguments
and the HTTP status (``code``) the API layer answers with, so the mapping to a
fault body happens once, in the API, and not at every raise site.
"""

from __future__ import annotations

import logging

LOG = logging.getLogger(__name__)


class NovaException(Exception):
    """Base class: a formatted message plus the HTTP status it maps to."""

    msg_fmt = "An unknown exception occurred."
    code = 500

    def __init__(self, message: str | None = None, **kwargs) -> None:
        self.kwargs = kwargs
        self.kwargs.setdefault("code", self.code)
        if message is None:
            try:
                message = self.msg_fmt % kwargs
            except (KeyError, TypeError, ValueError):
                # A raise site that forgot an argument must not turn into a
                # second, more confusing error; keep the template and say so.
                LOG.warning(
                    "Could not format %s message %r with %r",
                    type(self).__name__,
                    self.msg_fmt,
                    sorted(kwargs),
                )
                message = self.msg_fmt
        self.message = message
        super().__init__(message)

    def format_message(self) -> str:
        """The user-facing message (the API puts it in the fault body)."""
        return self.message


# 400 ---------------------------------------------------------------------


class Invalid(NovaException):
    msg_fmt = "Bad Request - Invalid Parameters"
    code = 400


class InvalidInput(Invalid):
    msg_fmt = "Invalid input received: %(reason)s"


class InvalidTransportURL(Invalid):
    msg_fmt = "Invalid transport URL %(url)s: %(reason)s"


class InvalidDatabaseConnection(Invalid):
    msg_fmt = "Invalid database connection %(url)s: %(reason)s"


class MarkerNotFound(Invalid):
    msg_fmt = "Marker %(marker)s could not be found."


class DatabaseNotConfigured(Invalid):
    msg_fmt = "[%(group)s] connection is not set in the configuration"


# 404 ---------------------------------------------------------------------


class NotFound(NovaException):
    msg_fmt = "Resource could not be found."
    code = 404


class CellMappingNotFound(NotFound):
    msg_fmt = "Cell %(uuid)s has no mapping."


class HostMappingNotFound(NotFound):
    msg_fmt = "Host '%(name)s' is not mapped to any cell"


class InstanceMappingNotFound(NotFound):
    msg_fmt = "Instance %(uuid)s has no mapping to a cell."


class InstanceNotFound(NotFound):
    msg_fmt = "Instance %(instance_id)s could not be found."


class ComputeHostNotFound(NotFound):
    msg_fmt = "Compute host %(host)s could not be found."


class ServiceNotFound(NotFound):
    msg_fmt = "Service %(service_id)s could not be found."


# 409 ---------------------------------------------------------------------


class Conflict(NovaException):
    msg_fmt = "Conflict"
    code = 409


class CellMappingExists(Conflict):
    msg_fmt = "Cell %(uuid)s is already mapped."


class HostMappingExists(Conflict):
    msg_fmt = "Host '%(name)s' mapping already exists"


class InstanceMappingExists(Conflict):
    msg_fmt = "Instance %(uuid)s is already mapped to a cell."


class ObjectActionError(NovaException):
    msg_fmt = "Object action %(action)s failed because: %(reason)s"
