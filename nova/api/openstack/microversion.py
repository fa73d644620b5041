"""Choosing a handler by microversion, with a decorator instead of ``if``s.

Several functions of the same name each declare the version range they
serve::

    @microversion.version_handler("2.1", "2.54")
    def create(req): ...

    @microversion.version_handler("2.55")
    def create(req): ...

The name ends up bound to a dispatcher that calls the one whose range holds
the request's version. A request whose version no handler serves gets a 404,
as upstream answers for an API that does not exist at that version.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable

from nova import exception
from nova.api.openstack.api_version_request import APIVersionRequest

# "module.qualname" -> [(min, max, handler)], kept sorted by min.
_HANDLERS: dict[str, list[tuple[APIVersionRequest, APIVersionRequest | None, Callable]]]
_HANDLERS = defaultdict(list)


def version_handler(min_version: str, max_version: str | None = None):
    """Register the decorated function for ``[min_version, max_version]``."""
    low = APIVersionRequest(min_version)
    high = APIVersionRequest(max_version) if max_version else None

    def decorator(func: Callable) -> Callable:
        key = f"{func.__module__}.{func.__qualname__}"
        handlers = _HANDLERS[key]
        for other_low, other_high, _ in handlers:
            if (high is None or other_low <= high) and (
                other_high is None or low <= other_high
            ):
                raise ValueError(f"{key}: version ranges overlap at {min_version}")
        handlers.append((low, high, func))
        handlers.sort(key=lambda entry: entry[0])

        @functools.wraps(func)
        def dispatch(req, *args, **kwargs):
            version = req.api_version_request
            for handler_low, handler_high, handler in handlers:
                if handler_low <= version and (
                    handler_high is None or version <= handler_high
                ):
                    return handler(req, *args, **kwargs)
            raise exception.VersionNotFoundForAPIMethod(version=str(version))

        dispatch.versions = handlers
        return dispatch

    return decorator
