"""The request object handlers receive, and helpers to answer one."""

from __future__ import annotations

import json
import math
from typing import Any

import webob

from nova import exception
from nova.api.openstack import api_version_request

JSON = "application/json"
# Vendor media types clients may still send; they are plain JSON.
JSON_CONTENT_TYPES = (JSON, "application/vnd.openstack.compute+json")


class Request(webob.Request):
    """A webob request that knows its caller and API version.

    ``environ['nova.context']`` is set by the authentication middleware;
    :attr:`api_version_request` by the router once the version headers are
    negotiated.
    """

    api_version_request: api_version_request.APIVersionRequest | None = None
    # The project named in a ``/v2.1/{project_id}/...`` URL, if any.
    url_project_id: str | None = None

    @property
    def nova_context(self):
        """The caller's :class:`nova.context.RequestContext`."""
        return self.environ["nova.context"]

    def is_supported(self, min_version: str, max_version: str | None = None) -> bool:
        """Whether the request's microversion is within the given range."""
        return self.api_version_request.matches(min_version, max_version)

    @property
    def GET(self):  # noqa: N802 - webob's name
        """The query parameters; a query string that is not UTF-8, or that
        holds a NUL (which PostgreSQL refuses in any query), is a 400.

        :raises ValidationError: for such a query string.
        """
        try:
            params = super().GET
        except UnicodeDecodeError as exc:
            raise exception.ValidationError(
                detail="The query string is not valid UTF-8."
            ) from exc
        if any("\x00" in item for pair in params.items() for item in pair):
            raise exception.ValidationError(
                detail="The query string holds a NUL character."
            )
        return params

    @property
    def json(self) -> Any:
        """What pecan reads to fill a controller's arguments: the same
        checked parse as :meth:`json_body`, so no body reaches a bare
        ``json.loads`` (pecan's answer to a RecursionError is a 500)."""
        return self.json_body()

    def json_body(self) -> Any:
        """The decoded JSON body; None when there is none.

        :raises InvalidContentType: for a body that claims not to be JSON.
        :raises MalformedRequestBody: for a body that does not parse, nests
            deeper than MAX_JSON_DEPTH, or holds what no database column can
            store: ``NaN``/``Infinity`` (or a float past its range), a lone
            UTF-16 surrogate or NUL.
        """
        if "nova.json_body" in self.environ:
            return self.environ["nova.json_body"]
        if not self.body:
            return None
        content_type = self.content_type
        # No or text/plain content type: what curl and old clients send.
        if content_type and content_type not in (*JSON_CONTENT_TYPES, "text/plain"):
            raise exception.InvalidContentType(content_type=content_type)
        try:
            decoded = json.loads(
                self.body, parse_constant=_refuse_constant, parse_float=_finite_float
            )
        except (ValueError, RecursionError) as exc:
            raise exception.MalformedRequestBody(
                reason="cannot understand JSON"
            ) from exc
        _refuse_unstorable(decoded)
        self.environ["nova.json_body"] = decoded
        return decoded


def _refuse_constant(name: str):
    # json accepts NaN, Infinity and -Infinity, which are not JSON (RFC 8259)
    # and pass every minimum/maximum check of a schema.
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    # 1e400 is valid JSON, but as a float it is Infinity.
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is out of a float's range")
    return number


def _unstorable(text: str) -> str | None:
    if "\x00" in text:
        return "a string holds a NUL character"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "a string holds a lone UTF-16 surrogate"
    return None


# No Nova request nests deeper than a handful of levels; far deeper bodies
# would reach recursive code (validation messages, log masking) unbounded.
MAX_JSON_DEPTH = 32


def _refuse_unstorable(decoded: Any) -> None:
    """Refuse a body no handler should see, here rather than as an error at
    the insert: strings no database column can hold, a ``\\ud800`` escape
    without its pair (not UTF-8, so no MySQL nor PostgreSQL text) and
    ``\\u0000`` (refused by PostgreSQL), and nesting past MAX_JSON_DEPTH.
    Walks without recursion: the body may nest deeply."""
    pending = [(decoded, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, (dict, list)) and depth >= MAX_JSON_DEPTH:
            raise exception.MalformedRequestBody(
                reason=f"it nests deeper than {MAX_JSON_DEPTH} levels"
            )
        if isinstance(value, dict):
            pending.extend((key, depth) for key in value)
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            reason = _unstorable(value)
            if reason:
                raise exception.MalformedRequestBody(reason=reason)


def json_response(body: Any, status: int = 200, headers=None) -> webob.Response:
    """A JSON response; ``body`` None gives an empty one (204/202 answers)."""
    response = webob.Response(status=status, headerlist=list(headers or []))
    if body is not None:
        response.content_type = JSON
        response.charset = None
        response.body = json.dumps(body).encode("utf-8")
    else:
        response.content_type = None
        if status == 200:
            # Some upstream answers are a 200 with no body; pecan turns an
            # empty 200 into a 204 unless the body comes from an iterator.
            response.app_iter = _empty_body()
            response.content_length = 0
    return response


def _empty_body():
    yield b""
