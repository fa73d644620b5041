"""Glance v2 on keystoneauth1: image metadata on the user's behalf.

The endpoint comes from ``[glance] endpoint_override`` or else from the
service catalog, the user's own (in the request context) when the request
carried a Keystone token. The request is made with the user's token, so a
user sees exactly the images Glance shows them. Without a user token (the
``noauth2`` strategy, or a service acting on its own) the service
credentials of ``[glance]`` are used, if configured.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
from typing import Any

from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import loading as ks_loading
from keystoneauth1 import plugin as ks_plugin
from requests import exceptions as requests_exc

import nova.conf
from nova import exception
from nova.image import api

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

GROUP = "glance"
# Threads cannot be cancelled: a call to Glance never waits forever.
DEFAULT_TIMEOUT_SECONDS = 30
DOWNLOAD_CHUNK_BYTES = 1024 * 1024

# Glance v2 attributes nova keeps at the top level of its image dict; the
# rest of an image's keys are custom properties.
CORE_ATTRIBUTES = (
    "id",
    "name",
    "status",
    "visibility",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "container_format",
    "disk_format",
    "min_disk",
    "min_ram",
    "owner",
    "protected",
    "size",
    "virtual_size",
    "created_at",
    "updated_at",
    "tags",
    "file",
    "schema",
    "self",
    "direct_url",
    "locations",
    "os_hidden",
)
_DROPPED = ("file", "schema", "self", "direct_url", "locations")


class _UserTokenPlugin(ks_plugin.BaseAuthPlugin):
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


_session = None
_service_auth = None
_lock = threading.Lock()


def _session_and_service_auth():
    global _session, _service_auth
    with _lock:
        if _session is None:
            _session = ks_loading.load_session_from_conf_options(CONF, GROUP)
            _service_auth = ks_loading.load_auth_from_conf_options(CONF, GROUP)
        return _session, _service_auth


def normalize(image: dict[str, Any]) -> api.ImageDict:
    """Glance's flat v2 image as nova's image dict (properties nested)."""
    result = {key: image.get(key) for key in CORE_ATTRIBUTES if key not in _DROPPED}
    result["min_ram"] = int(image.get("min_ram") or 0)
    result["min_disk"] = int(image.get("min_disk") or 0)
    result["properties"] = {
        key: value for key, value in image.items() if key not in CORE_ATTRIBUTES
    }
    return result


def _versioned(url: str) -> str:
    """The v2 API under a catalog endpoint (which is usually unversioned)."""
    url = url.rstrip("/")
    return url if re.search(r"/v2(\.\d+)?$", url) else f"{url}/v2"


class GlanceImageAPI(api.ImageAPI):
    def _adapter(self, context) -> ks_adapter.Adapter:
        session, service_auth = _session_and_service_auth()
        # Only Keystone-authenticated requests carry a user token (noauth2
        # never passes one on).
        token = getattr(context, "auth_token", None)
        if token:
            auth = _UserTokenPlugin(token, getattr(context, "service_catalog", []))
        else:
            auth = service_auth
        url = CONF.glance.endpoint_override
        if not url and auth is not None:
            url = auth.get_endpoint(
                session,
                service_type=CONF.glance.service_type,
                interface=CONF.glance.valid_interfaces,
                region_name=CONF.glance.region_name,
            )
        if not url:
            raise exception.ImageServiceUnavailable(
                reason="no image endpoint in the service catalog and no "
                "[glance] endpoint_override"
            )
        return ks_adapter.Adapter(
            session,
            auth=auth,
            endpoint_override=_versioned(url),
            connect_retries=CONF.glance.num_retries,
            global_request_id=getattr(context, "global_request_id", None),
        )

    def show(self, context, image_id: str) -> api.ImageDict:
        try:
            response = self._adapter(context).get(
                f"/images/{image_id}",
                raise_exc=False,
                timeout=CONF.glance.timeout or DEFAULT_TIMEOUT_SECONDS,
            )
        except (ks_exc.EndpointNotFound, ks_exc.ConnectionError) as exc:
            raise exception.ImageServiceUnavailable(reason=str(exc)) from exc
        if response.status_code in (403, 404):
            # Another project's private image is as good as absent.
            raise exception.ImageNotFound(image_id=image_id)
        if response.status_code >= 400:
            raise exception.ImageServiceUnavailable(
                reason=f"GET /v2/images/{image_id} returned {response.status_code}"
            )
        return normalize(response.json())

    def download(self, context, image_id: str, dst_path: str) -> None:
        try:
            response = self._adapter(context).get(
                f"/images/{image_id}/file",
                raise_exc=False,
                stream=True,
                timeout=CONF.glance.timeout or DEFAULT_TIMEOUT_SECONDS,
            )
        except (ks_exc.EndpointNotFound, ks_exc.ConnectionError) as exc:
            raise exception.ImageServiceUnavailable(reason=str(exc)) from exc
        with contextlib.closing(response):
            if response.status_code in (403, 404):
                raise exception.ImageNotFound(image_id=image_id)
            if response.status_code != 200:
                raise exception.ImageDownloadFailed(
                    image_id=image_id,
                    reason=f"GET /v2/images/{image_id}/file returned "
                    f"{response.status_code}",
                )
            try:
                with open(dst_path, "wb") as out:
                    for chunk in response.iter_content(DOWNLOAD_CHUNK_BYTES):
                        out.write(chunk)
            except (OSError, requests_exc.RequestException) as exc:
                raise exception.ImageDownloadFailed(
                    image_id=image_id, reason=str(exc)
                ) from exc
