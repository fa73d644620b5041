"""What both APIs refuse at the door, before any handler sees the request.

* A body longer than ``[oslo_middleware] max_request_body_size`` (112 KiB
  by default, as upstream's ``sizelimit`` filter) is a 413. A declared
  ``Content-Length`` is refused unread; a chunked body is cut off as soon as
  reading it passes the limit. Either way nothing large reaches a handler,
  a response or a log line.
* A path that is not UTF-8 (``GET /%ff``) names no resource: a 404.

Each API renders the refusal in its own error format through ``fault``.
"""

from __future__ import annotations

from collections.abc import Callable

import webob
import webob.dec
import webob.exc
from oslo_config import cfg
from oslo_middleware import sizelimit

Fault = Callable[[webob.Request, webob.exc.HTTPException], webob.Response]


def _plain_fault(req: webob.Request, exc: webob.exc.HTTPException) -> webob.Response:
    return exc


def _body_too_large(limit: int) -> webob.exc.HTTPRequestEntityTooLarge:
    return webob.exc.HTTPRequestEntityTooLarge(
        explanation=f"Request is too large. Larger than {limit} bytes."
    )


class _LimitedBody:
    """The request's input stream, refusing to read past ``limit`` bytes."""

    def __init__(self, stream, limit: int) -> None:
        self._stream = stream
        self._limit = limit
        self._read = 0

    def _count(self, data: bytes) -> bytes:
        self._read += len(data)
        if self._read > self._limit:
            raise _body_too_large(self._limit)
        return data

    def read(self, size: int = -1) -> bytes:
        # Never more than one byte past the limit in one go.
        room = self._limit + 1 - self._read
        return self._count(self._stream.read(room if size < 0 else min(size, room)))


class RequestGuard:
    """Middleware refusing oversized bodies and undecodable paths."""

    def __init__(self, application, conf: cfg.ConfigOpts, fault: Fault = _plain_fault):
        # oslo.middleware's own option, as its sizelimit filter reads it.
        conf.register_opts(sizelimit.OPTS, group="oslo_middleware")
        self.application = application
        self.conf = conf
        self.fault = fault

    @webob.dec.wsgify
    def __call__(self, req: webob.Request):
        try:
            # PEP 3333: the raw path's bytes, one character each.
            req.environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8")
        except UnicodeError:
            return self.fault(
                req,
                webob.exc.HTTPNotFound(explanation="The resource could not be found."),
            )
        limit = self.conf.oslo_middleware.max_request_body_size
        if req.content_length is not None and req.content_length > limit:
            return self.fault(req, _body_too_large(limit))
        if req.content_length is None and req.is_body_readable:
            # A body of unknown length (chunked) the server lets us read.
            req.body_file = _LimitedBody(req.body_file_raw, limit)
        return req.get_response(self.application)
