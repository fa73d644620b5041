"""The request object handlers receive, and helpers to answer one."""

from __future__ import annotations

import json
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

    def json_body(self) -> Any:
        """The decoded JSON body; None when there is none.

        :raises InvalidContentType: for a body that claims not to be JSON.
        :raises MalformedRequestBody: for a body that does not parse.
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
            decoded = json.loads(self.body)
        except ValueError as exc:
            raise exception.MalformedRequestBody(
                reason="cannot understand JSON"
            ) from exc
        self.environ["nova.json_body"] = decoded
        return decoded


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
