"""Exceptions raised by the Placement client.

Every failure the client cannot absorb surfaces as a subclass of
:class:`PlacementClientError`. Messages carry the method, path, HTTP status,
Placement's error code and its ``detail`` text; never request headers, so a
token cannot end up in a log line or a user-visible fault.
"""

from __future__ import annotations

import re

# Placement error codes (present in error bodies from microversion 1.23).
CONCURRENT_UPDATE = "placement.concurrent_update"
DUPLICATE_NAME = "placement.duplicate_name"
INVENTORY_IN_USE = "placement.inventory.inuse"
PROVIDER_IN_USE = "placement.resource_provider.inuse"
PROVIDER_CANNOT_DELETE_PARENT = "placement.resource_provider.cannot_delete_parent"
UNDEFINED_CODE = "placement.undefined_code"

# Placement shares one code between provider and consumer generation
# conflicts; only the detail text tells them apart.
_CONSUMER_GENERATION_DETAIL = "consumer generation conflict"
_PROVIDER_PATH = re.compile(r"^/resource_providers/(?P<uuid>[^/?]+)")
_ALLOCATIONS_PATH = re.compile(r"^/allocations(/|$)")
_MAX_BODY_CHARS = 2000
_MAX_DETAIL_CHARS = 500


class PlacementClientError(Exception):
    """Base class of every error raised by :mod:`placement_client`."""


class PlacementUnavailable(PlacementClientError):
    """Placement could not be reached or failed on its side.

    Raised for connection failures and timeouts (after the adapter's
    ``connect_retries``), a missing endpoint or unusable service credentials,
    and 5xx responses (after the adapter's ``status_code_retries``).
    """

    def __init__(self, reason: str, status: int | None = None) -> None:
        super().__init__(f"Placement is unavailable: {reason}")
        self.reason = reason
        self.status = status


class PlacementAPIError(PlacementClientError):
    """Placement answered a request with a 4xx error."""

    def __init__(
        self,
        method: str,
        path: str,
        status: int,
        code: str | None,
        detail: str,
        body: str = "",
        request_id: str | None = None,
    ) -> None:
        code_part = f" {code}" if code else ""
        super().__init__(f"{method} {path} returned {status}{code_part}: {detail}")
        self.method = method
        self.path = path
        self.status = status
        self.code = code
        self.detail = detail
        self.body = body[:_MAX_BODY_CHARS]
        self.request_id = request_id


class ResourceProviderNotFound(PlacementAPIError):
    """The resource provider named in the request path does not exist."""

    @property
    def uuid(self) -> str:
        match = _PROVIDER_PATH.match(self.path)
        return match.group("uuid") if match else ""


class PlacementConflict(PlacementAPIError):
    """Placement refused a write with 409 Conflict."""


class GenerationConflict(PlacementConflict):
    """A generation in the request was stale (``placement.concurrent_update``)."""


class ResourceProviderGenerationConflict(GenerationConflict):
    """Another writer changed the provider since its generation was read."""


class ConsumerGenerationConflict(GenerationConflict):
    """Another writer changed the consumer's allocations since they were read.

    Never retried blindly: the caller must re-read and decide again, because
    the other writer's allocations would otherwise be overwritten or doubled.
    """


class ResourceProviderConflict(PlacementConflict):
    """A provider with the same name or UUID already exists."""


class ResourceProviderInUse(PlacementConflict):
    """The provider still has allocations or child providers."""


class InventoryInUse(PlacementConflict):
    """Inventory of a resource class that has allocations cannot be removed."""


class ClaimConflict(PlacementConflict):
    """Allocations were refused for lack of capacity or unit constraints."""


def from_response(
    method: str,
    path: str,
    status: int,
    body: str,
    errors: list[dict] | None,
    request_id: str | None = None,
) -> PlacementClientError:
    """Build the most specific exception for an error response.

    :param method: HTTP method of the request.
    :param path: request path relative to the Placement endpoint.
    :param status: HTTP status code of the response (>= 400).
    :param body: response body text, kept (truncated) for diagnostics.
    :param errors: the decoded ``errors`` list of Placement's JSON error
        body, or None when the body was not such a document.
    :param request_id: Placement's ``X-OpenStack-Request-ID`` for the call.
    """
    first = (errors or [{}])[0]
    code = first.get("code")
    # webob formats details over several lines; one line reads better in logs.
    text = str(first.get("detail") or first.get("title") or body)
    detail = " ".join(text.split())[:_MAX_DETAIL_CHARS]
    if status >= 500:
        return PlacementUnavailable(
            f"{method} {path} returned {status}: {detail}", status
        )
    args = (method, path, status, code, detail, body, request_id)
    if status == 404 and _PROVIDER_PATH.match(path):
        return ResourceProviderNotFound(*args)
    if status != 409:
        return PlacementAPIError(*args)
    if code == CONCURRENT_UPDATE:
        if _CONSUMER_GENERATION_DETAIL in detail:
            return ConsumerGenerationConflict(*args)
        return ResourceProviderGenerationConflict(*args)
    if code == INVENTORY_IN_USE:
        return InventoryInUse(*args)
    if code in (PROVIDER_IN_USE, PROVIDER_CANNOT_DELETE_PARENT):
        return ResourceProviderInUse(*args)
    if code == DUPLICATE_NAME:
        return ResourceProviderConflict(*args)
    if _ALLOCATIONS_PATH.match(path):
        return ClaimConflict(*args)
    return PlacementConflict(*args)
