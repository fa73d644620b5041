"""Every error the API returns, in Nova's fault body format.

``{"itemNotFound": {"code": 404, "message": "..."}}``: the key names the
kind of fault, derived from the HTTP status. :func:`fault_response` is the
one place exceptions become responses: a ``NovaException`` answers with its
``code`` and message, a webob HTTP error with its own status, anything else
with a 500 ``computeFault`` that names the exception class and never shows
a traceback.

The log line of a refused request names the fault but never repeats what
the caller sent in a secret field (``adminPass``, ``password``, tokens ...),
and is cut short: the message may quote a rejected value of any size.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import kombu.exceptions
import oslo_messaging
import webob
import webob.dec
import webob.exc

from nova import exception
from nova.api.openstack import api_version_request
from nova.api.openstack.request import Request, json_response
from nova.objects import base as objects_base

LOG = logging.getLogger(__name__)

FAULT_NAMES = {
    400: "badRequest",
    401: "unauthorized",
    403: "forbidden",
    404: "itemNotFound",
    405: "badMethod",
    409: "conflictingRequest",
    413: "overLimit",
    415: "badMediaType",
    429: "overLimit",
    501: "notImplemented",
    503: "serviceUnavailable",
}
DEFAULT_FAULT_NAME = "computeFault"

# Request body keys whose values must never reach a log (matched anywhere in
# the key, whatever its case: adminPass, admin_password, auth_token ...).
SECRET_KEY_PARTS = ("pass", "token", "secret", "private_key")
MASK = "***"
# Longest fault message a log line repeats.
MAX_LOGGED_MESSAGE = 512

# A backing service of nova-api (the message queue, the database) that is
# down makes a request fail for now, not for ever: 503 with a Retry-After
# (seconds), never a 500.
RETRY_AFTER_SECONDS = 10
UNAVAILABLE = "The %s is unavailable. Please retry later."

UNEXPECTED_ERROR = (
    "Unexpected API Error. Please report this to the operators of this "
    "cloud along with the nova-api log.\n%s"
)


def fault_body(code: int, message: str) -> dict:
    return {
        FAULT_NAMES.get(code, DEFAULT_FAULT_NAME): {"code": code, "message": message}
    }


def unavailable_service(exc: BaseException) -> str | None:
    """The backing service ``exc`` says is down, or None."""
    if isinstance(
        exc,
        (
            oslo_messaging.MessageDeliveryFailure,
            oslo_messaging.MessagingTimeout,
            # A new connection to a broker that is down, once out of retries.
            kombu.exceptions.OperationalError,
        ),
    ):
        return "message queue"
    if objects_base.database_unreachable(exc):
        return "database"
    return None


def _code_and_message(exc: BaseException) -> tuple[int, str]:
    service = unavailable_service(exc)
    if service is not None:
        LOG.warning("The %s is unavailable: %s", service, type(exc).__name__)
        return 503, UNAVAILABLE % service
    if isinstance(exc, exception.NovaException):
        code = exc.code if isinstance(exc.code, int) else 500
        return code, exc.format_message()
    if isinstance(exc, webob.exc.HTTPException):
        return exc.status_int, exc.explanation or exc.title
    LOG.exception("Unexpected error serving a Compute API request")
    return 500, UNEXPECTED_ERROR % type(exc)


def _is_secret_key(key: object) -> bool:
    return isinstance(key, str) and any(
        part in key.lower() for part in SECRET_KEY_PARTS
    )


def _secret_values(node: Any, secret: bool = False) -> set[str]:
    """The text of every value under a secret key of a JSON document."""
    if isinstance(node, dict):
        return set().union(
            *(_secret_values(value, secret or _is_secret_key(key))
              for key, value in node.items()),
        )  # fmt: skip
    if isinstance(node, list):
        return set().union(*(_secret_values(value, secret) for value in node))
    if secret and node is not None and str(node):
        return {str(node), json.dumps(node)}
    return set()


def _loggable_message(req: webob.Request, message: str) -> str:
    """``message`` as a log line may repeat it: the values of the request
    body's secret fields masked, and no longer than MAX_LOGGED_MESSAGE."""
    body = req.environ.get("nova.json_body")
    # Longest first, so a value containing another is masked whole.
    for value in sorted(_secret_values(body), key=len, reverse=True):
        message = message.replace(value, MASK)
    if len(message) > MAX_LOGGED_MESSAGE:
        message = f"{message[:MAX_LOGGED_MESSAGE]}... ({len(message)} characters)"
    return message


def _loggable_path(req: webob.Request) -> str:
    # The raw path: it may not decode (a refused undecodable path).
    path = req.environ.get("SCRIPT_NAME", "") + req.environ.get("PATH_INFO", "")
    return (
        path if len(path) <= MAX_LOGGED_MESSAGE else f"{path[:MAX_LOGGED_MESSAGE]}..."
    )


def fault_response(req: webob.Request, exc: BaseException) -> webob.Response:
    """The fault response for ``exc`` raised while serving ``req``."""
    code, message = _code_and_message(exc)
    if code < 500:
        LOG.info(
            "%s %s returned %s: %s",
            req.method,
            _loggable_path(req),
            code,
            _loggable_message(req, message),
        )
    headers = []
    version = getattr(req, "api_version_request", None)
    if version is not None:
        headers.extend(api_version_request.response_headers(version))
    allowed = getattr(exc, "kwargs", {}).get("allowed")
    if code == 405 and allowed:
        headers.append(("Allow", ", ".join(allowed)))
    if code == 503:
        headers.append(("Retry-After", str(RETRY_AFTER_SECONDS)))
    return json_response(fault_body(code, message), status=code, headers=headers)


class FaultWrapper:
    """Outermost middleware: whatever escapes the layers below is a fault."""

    def __init__(self, application) -> None:
        self.application = application

    @webob.dec.wsgify(RequestClass=Request)
    def __call__(self, req: Request):
        try:
            return req.get_response(self.application)
        except Exception as exc:  # the last line of defence: never a traceback
            return fault_response(req, exc)
