"""HTTP transport to Placement over a keystoneauth1 Adapter.

One place decides how every request is made: the microversion header, the
timeout, the global request id, JSON in and out, and the translation of
failures into :mod:`placement_client.exception` classes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

import requests
from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import exceptions as ks_exc
from oslo_log import log as logging

from placement_client import exception

LOG = logging.getLogger(__name__)

# Threads cannot be cancelled, so no request may wait forever: this applies
# whenever neither the caller nor the session ([placement] timeout) set one.
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_ATTEMPTS = 4
DEFAULT_RETRY_DELAY = 0.5

_REQUEST_ID_HEADER = "X-OpenStack-Request-ID"

T = TypeVar("T")


class RequestContext(Protocol):
    """What the client reads from a request context (oslo.context has it)."""

    @property
    def global_id(self) -> str | None: ...


Params = Mapping[str, Any] | Iterable[tuple[str, Any]]


class Transport:
    """Sends requests to Placement and raises on anything but success.

    :param adapter: a keystoneauth1 Adapter whose ``service_type`` is
        ``placement`` (its interface, region and ``endpoint_override`` pick the
        endpoint; its ``connect_retries``/``status_code_retries`` apply).
    :param timeout: seconds per request; defaults to the session's timeout or
        :data:`DEFAULT_TIMEOUT`.
    :param max_attempts: attempts for writes that lose a generation race.
    :param retry_delay: upper bound, multiplied by the attempt number, of the
        random pause between such attempts.
    """

    def __init__(
        self,
        adapter: ks_adapter.Adapter,
        timeout: float | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        retry_delay: float = DEFAULT_RETRY_DELAY,
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.adapter = adapter
        self.timeout = timeout or adapter.session.timeout or DEFAULT_TIMEOUT
        self.max_attempts = max_attempts
        self.retry_delay = retry_delay

    def request(
        self,
        method: str,
        path: str,
        version: str,
        *,
        json: Any = None,
        params: Params | None = None,
        context: RequestContext | None = None,
    ) -> requests.Response:
        """Send one request and return the (2xx/3xx) response.

        :param method: HTTP method.
        :param path: path relative to the Placement endpoint, e.g.
            ``/resource_providers/<uuid>``.
        :param version: Placement microversion sent as
            ``OpenStack-API-Version: placement <version>``.
        :param json: request body, serialized as JSON.
        :param params: query parameters (a list of pairs may repeat keys).
        :param context: request context; its ``global_id`` becomes the
            ``X-OpenStack-Request-ID`` header.
        :raises PlacementUnavailable: connection failure, timeout, no
            endpoint, unusable credentials, or a 5xx response.
        :raises PlacementAPIError: (or a subclass) for a 4xx response.
        """
        kwargs: dict[str, Any] = {
            "microversion": version,
            # Explicit, so the header is right even for an adapter built
            # with only an endpoint_override.
            "microversion_service_type": "placement",
            "timeout": self.timeout,
            "raise_exc": False,
            "headers": {"Accept": "application/json"},
        }
        if json is not None:
            kwargs["json"] = json
        if params is not None:
            kwargs["params"] = params
        global_id = getattr(context, "global_id", None)
        if global_id:
            kwargs["global_request_id"] = global_id
        try:
            response = self.adapter.request(path, method, **kwargs)
        except ks_exc.ClientException as exc:
            # Raised before Placement answered: connection failure or timeout
            # (after the adapter's connect_retries), no endpoint in the
            # catalog, missing or rejected service credentials. keystoneauth's
            # messages name URLs and option names, never secrets.
            raise exception.PlacementUnavailable(
                f"{method} {path} failed: {type(exc).__name__}: {exc}"
            ) from exc
        if response.status_code >= 400:
            error = _error_from(method, path, response)
            LOG.debug("Placement request failed: %s", error)
            raise error
        return response

    def retry_on_generation_conflict(
        self,
        operation: str,
        attempt: Callable[[], T],
    ) -> T:
        """Call ``attempt`` until it stops losing provider generation races.

        ``attempt`` must re-read whatever generation it writes with, so each
        try works from fresh state. Raises the last conflict once
        ``max_attempts`` are used up. Consumer generation conflicts are not
        retried: they mean another writer decided about the same consumer.
        """
        for number in range(self.max_attempts):
            # The first attempt goes at once; each retry waits a random pause
            # that grows with the attempt number, so racing writers spread out.
            time.sleep(random.uniform(0, number * self.retry_delay))
            try:
                return attempt()
            except exception.ResourceProviderGenerationConflict as exc:
                last = exc
                LOG.debug(
                    "%s lost a generation race (attempt %d of %d): %s",
                    operation,
                    number + 1,
                    self.max_attempts,
                    exc.detail,
                )
        raise last


def _error_from(
    method: str, path: str, response: requests.Response
) -> exception.PlacementClientError:
    try:
        body = response.json()
    except ValueError:
        body = None
    errors = body.get("errors") if isinstance(body, dict) else None
    return exception.from_response(
        method,
        path,
        response.status_code,
        response.text,
        errors if isinstance(errors, list) else None,
        response.headers.get(_REQUEST_ID_HEADER),
    )
