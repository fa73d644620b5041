"""Every error the API returns, in Nova's fault body format.

``{"itemNotFound": {"code": 404, "message": "..."}}``: the key names the
kind of fault, derived from the HTTP status. :func:`fault_response` is the
one place exceptions become responses: a ``NovaException`` answers with its
``code`` and message, a webob HTTP error with its own status, anything else
with a 500 ``computeFault`` that names the exception class and never shows
a traceback.
"""

from __future__ import annotations

import logging

import webob
import webob.dec
import webob.exc

from nova import exception
from nova.api.openstack import api_version_request
from nova.api.openstack.request import Request, json_response

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

UNEXPECTED_ERROR = (
    "Unexpected API Error. Please report this to the operators of this "
    "cloud along with the nova-api log.\n%s"
)


def fault_body(code: int, message: str) -> dict:
    return {
        FAULT_NAMES.get(code, DEFAULT_FAULT_NAME): {"code": code, "message": message}
    }


def _code_and_message(exc: BaseException) -> tuple[int, str]:
    if isinstance(exc, exception.NovaException):
        code = exc.code if isinstance(exc.code, int) else 500
        return code, exc.format_message()
    if isinstance(exc, webob.exc.HTTPException):
        return exc.status_int, exc.explanation or exc.title
    LOG.exception("Unexpected error serving a Compute API request")
    return 500, UNEXPECTED_ERROR % type(exc)


def fault_response(req: webob.Request, exc: BaseException) -> webob.Response:
    """The fault response for ``exc`` raised while serving ``req``."""
    code, message = _code_and_message(exc)
    if code < 500:
        LOG.info("%s %s returned %s: %s", req.method, req.path, code, message)
    headers = []
    version = getattr(req, "api_version_request", None)
    if version is not None:
        headers.extend(api_version_request.response_headers(version))
    allowed = getattr(exc, "kwargs", {}).get("allowed")
    if code == 405 and allowed:
        headers.append(("Allow", ", ".join(allowed)))
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
