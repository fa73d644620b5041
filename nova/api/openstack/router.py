"""Dispatching a request to its handler through the routing table.

The routing table (``nova.api.openstack.compute.routes.ROUTES``) maps URL
templates such as ``/v2.1/servers/{server_id}`` to ``{METHOD: handler}``.
pecan serves the WSGI side; its root controller resolves every path through
the table here instead of walking controller attributes, so the whole API is
visible in one place.

For each request the router negotiates the microversion, finds the route
(accepting the legacy ``/v2.1/{project_id}/...`` form), calls the handler
with the template's parameters and echoes the version on the response.
Exceptions become Nova faults in pecan's error hook.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import pecan
import pecan.hooks

from nova import exception
from nova.api.openstack import api_version_request, faults
from nova.api.openstack.request import JSON, Request

Handler = Callable[..., object]

_PARAM = re.compile(r"\{(\w+)\}")


class Route:
    def __init__(self, template: str, methods: Mapping[str, Handler]) -> None:
        self.template = template
        self.methods = dict(methods)
        self.params = _PARAM.findall(template)
        # A parameter never holds NUL: no object has it in its id, and
        # PostgreSQL refuses it in any query, so such a path matches nothing.
        pattern = _PARAM.sub(
            r"(?P<\1>[^/\\x00]+)",
            re.escape(template).replace(r"\{", "{").replace(r"\}", "}"),
        )
        self.regex = re.compile(f"^{pattern}$")


class Router:
    """Matches paths against the routing table."""

    def __init__(
        self, table: Mapping[str, Mapping[str, Handler]], api_prefix: str
    ) -> None:
        # Literal templates win over parameterised ones (/servers/detail
        # before /servers/{server_id}).
        self.routes = sorted(
            (Route(template, methods) for template, methods in table.items()),
            key=lambda route: len(route.params),
        )
        self.api_prefix = api_prefix

    def _match(self, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            found = route.regex.match(path)
            if found:
                return route, found.groupdict()
        return None

    def match(self, path: str) -> tuple[Route, dict[str, str], str | None] | None:
        """The route of ``path``, its parameters and the URL's project id.

        ``/v2.1/{project_id}/servers`` is the same resource as
        ``/v2.1/servers``; the project id is returned for the caller to check.
        Only the API roots (``/``, ``/v2/``, ``/v2.1/``) take a trailing
        slash, as upstream's router has it: ``/os-simple-tenant-usage/`` is
        not the usage list but a usage with an empty project id, i.e. 404.
        """
        stripped = path.rstrip("/") or "/"
        if stripped.count("/") <= 1:
            path = stripped
        found = self._match(path)
        if found:
            return (*found, None)
        prefix = self.api_prefix + "/"
        if path.startswith(prefix):
            project_id, _, rest = path[len(prefix) :].partition("/")
            if rest:
                found = self._match(prefix + rest)
                if found:
                    return (*found, project_id)
        return None


def _call(router: Router, req: Request):
    req.api_version_request = api_version_request.from_headers(req.headers)
    found = router.match(req.path_info)
    if found is None:
        raise exception.NotFound("The resource could not be found.")
    route, params, url_project_id = found
    handler = route.methods.get(req.method)
    if handler is None:
        raise exception.MethodNotAllowed(
            method=req.method, allowed=sorted(route.methods)
        )
    if url_project_id is not None:
        context = req.environ.get("nova.context")
        if context is not None and url_project_id != context.project_id:
            raise exception.ProjectIdMismatch(
                project_id=url_project_id, context_project_id=context.project_id
            )
        req.url_project_id = url_project_id
    response = handler(req, **params)
    response.headerlist.extend(
        api_version_request.response_headers(req.api_version_request)
    )
    return response


class RootController:
    """pecan's root: every path goes to :meth:`dispatch` via the table."""

    def __init__(self, router: Router) -> None:
        self._router = router

    @pecan.expose()
    def _route(self, args, request):
        return self.dispatch, []

    @pecan.expose(content_type=JSON)
    def dispatch(self, *args, **kwargs):
        return _call(self._router, pecan.request)


class _JSONOnlyHook(pecan.hooks.PecanHook):
    """Every answer is JSON: skip pecan's Accept-based template choice."""

    def on_route(self, state):
        state.request.pecan["content_type"] = JSON


class _FaultHook(pecan.hooks.PecanHook):
    """Exceptions from handlers become Nova fault responses."""

    def on_error(self, state, exc):
        return faults.fault_response(state.request, exc)


def make_app(table: Mapping[str, Mapping[str, Handler]], api_prefix: str):
    """The pecan WSGI application serving ``table``."""
    return pecan.Pecan(
        RootController(Router(table, api_prefix)),
        hooks=[_JSONOnlyHook(), _FaultHook()],
        request_cls=Request,
        guess_content_type_from_ext=False,
        force_canonical=False,
    )
