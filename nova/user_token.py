"""Calling another service as the user who called us: the user's token,
and the endpoints of the catalog keystonemiddleware handed us with it
(Glance and Cinder are both reached this way)."""

from __future__ import annotations

from typing import Any

from keystoneauth1 import plugin as ks_plugin


class UserTokenPlugin(ks_plugin.BaseAuthPlugin):
    """The caller's token, and endpoints from the caller's catalog."""

    def __init__(self, token: str, catalog: list[dict[str, Any]]) -> None:
        super().__init__()
        self._token = token
        self._catalog = catalog

    def get_token(self, session, **kwargs) -> str:
        return self._token

    def get_endpoint(
        self, session, service_type=None, interface=None, region_name=None, **kwargs
    ):
        interfaces = interface if isinstance(interface, list) else [interface]
        for service in self._catalog:
            if service.get("type") != service_type:
                continue
            endpoints = service.get("endpoints", [])
            for wanted in interfaces:
                for endpoint in endpoints:
                    if region_name and endpoint.get("region") not in (
                        region_name,
                        None,
                    ):
                        continue
                    url = _endpoint_url(endpoint, wanted)
                    if url:
                        return url
        return None


def _endpoint_url(endpoint: dict[str, Any], interface: str | None) -> str | None:
    """The URL of ``endpoint`` for ``interface`` (any if None).

    keystonemiddleware's X-Service-Catalog holds v3 catalogs normalized to
    the v2 shape: one entry per region with ``publicURL``, ``internalURL``,
    ``adminURL``; a v3 entry has ``interface`` and ``url``. Both are read.
    """
    if "url" in endpoint:
        if interface is None or endpoint.get("interface") == interface:
            return endpoint["url"]
        return None
    if interface is None:
        return next(
            (
                endpoint[f"{i}URL"]
                for i in ("public", "internal", "admin")
                if endpoint.get(f"{i}URL")
            ),
            None,
        )
    return endpoint.get(f"{interface}URL")
