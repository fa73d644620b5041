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
import json
import logging
import re
import urllib.parse
from typing import Any

from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import exceptions as ks_exc
from oslo_utils import uuidutils
from requests import exceptions as requests_exc

import nova.conf
from nova import exception, service_session, user_token

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

GROUP = "glance"
# Threads cannot be cancelled: a call to Glance never waits forever.
DEFAULT_TIMEOUT_SECONDS = 30
DOWNLOAD_CHUNK_BYTES = 1024 * 1024
# A snapshot's upload streams a whole disk.
UPLOAD_TIMEOUT_SECONDS = 600

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
# What Glance computes or guards itself: a create or update that sets one
# is refused (403), so they never leave nova.
READ_ONLY = (
    "id",
    "status",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "size",
    "virtual_size",
    "created_at",
    "updated_at",
    "file",
    "schema",
    "self",
    "direct_url",
    "locations",
    "stores",
    "owner",
    "deleted",
    "deleted_at",
)
READ_ONLY_PREFIX = "os_glance_"


def normalize(image: dict[str, Any]) -> dict[str, Any]:
    """Glance's flat v2 image as nova's image dict (properties nested)."""
    result = {key: image.get(key) for key in CORE_ATTRIBUTES if key not in _DROPPED}
    result["min_ram"] = int(image.get("min_ram") or 0)
    result["min_disk"] = int(image.get("min_disk") or 0)
    # Glance's own bookkeeping (``stores``, ``os_glance_*``) is no property
    # of the image a user could set, so the image metadata API never shows it.
    result["properties"] = {
        key: value
        for key, value in image.items()
        if key not in CORE_ATTRIBUTES and _writable(key)
    }
    return result


def _writable(key: str) -> bool:
    return key not in READ_ONLY and not key.startswith(READ_ONLY_PREFIX)


def denormalize(image_meta: dict[str, Any]) -> dict[str, Any]:
    """Nova's image dict as the flat body Glance v2 takes: read-only keys
    dropped, properties as strings beside the core attributes."""
    body = {
        key: value
        for key, value in image_meta.items()
        if key != "properties" and value is not None and _writable(key)
    }
    for key, value in (image_meta.get("properties") or {}).items():
        if value is not None and _writable(key):
            body[key] = value if isinstance(value, str) else str(value)
    return body


def _image_path(image_id: str, suffix: str = "") -> str:
    """Glance's path of an image. Glance's ids are UUIDs: anything else
    (a path segment from a user may hold '?', '..' or thousands of digits)
    names no image and is not sent.

    :raises ImageNotFound: ``image_id`` is not a UUID.
    """
    if not uuidutils.is_uuid_like(image_id):
        raise exception.ImageNotFound(image_id=image_id)
    return f"/images/{image_id}{suffix}"


def _versioned(url: str) -> str:
    """The v2 API under a catalog endpoint (which is usually unversioned)."""
    url = url.rstrip("/")
    return url if re.search(r"/v2(\.\d+)?$", url) else f"{url}/v2"


class GlanceImageAPI:
    """The image API (:class:`nova.image.api.ImageAPI`) over Glance v2."""

    def _adapter(self, context) -> ks_adapter.Adapter:
        session, service_auth = service_session.session_and_auth(GROUP)
        # Only Keystone-authenticated requests carry a user token (noauth2
        # never passes one on).
        token = getattr(context, "auth_token", None)
        if token:
            auth = user_token.UserTokenPlugin(
                token, getattr(context, "service_catalog", [])
            )
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

    def _request(self, context, method: str, path: str, **kwargs):
        """One request to Glance; the response, whatever its status.

        :raises ImageServiceUnavailable: Glance cannot be reached.
        """
        kwargs.setdefault("timeout", CONF.glance.timeout or DEFAULT_TIMEOUT_SECONDS)
        try:
            return self._adapter(context).request(
                path, method, raise_exc=False, **kwargs
            )
        except (ks_exc.EndpointNotFound, ks_exc.ConnectionError) as exc:
            raise exception.ImageServiceUnavailable(reason=str(exc)) from exc

    @staticmethod
    def _raise_for(response, method: str, path: str, image_id: str | None) -> None:
        """Glance's refusal as nova's exception (nothing if it succeeded)."""
        status = response.status_code
        if status < 400:
            return
        if status == 404:
            raise exception.ImageNotFound(image_id=image_id)
        if status == 403:
            raise exception.ImageNotAuthorized(image_id=image_id)
        if status in (400, 409, 413):
            raise exception.ImageBadRequest(
                image_id=image_id, response=response.text[:500]
            )
        raise exception.ImageServiceUnavailable(
            reason=f"{method} /v2{path} returned {status}"
        )

    def show(self, context, image_id: str) -> dict[str, Any]:
        path = _image_path(image_id)
        response = self._request(context, "GET", path)
        if response.status_code in (403, 404):
            # Another project's private image is as good as absent.
            raise exception.ImageNotFound(image_id=image_id)
        self._raise_for(response, "GET", path, image_id)
        return normalize(response.json())

    def create(self, context, image_meta: dict[str, Any]) -> dict[str, Any]:
        response = self._request(
            context, "POST", "/images", json=denormalize(image_meta)
        )
        self._raise_for(response, "POST", "/images", image_meta.get("id"))
        return normalize(response.json())

    def upload(self, context, image_id: str, data) -> None:
        path = _image_path(image_id, "/file")
        try:
            response = self._request(
                context,
                "PUT",
                path,
                data=data,
                headers={"Content-Type": "application/octet-stream"},
                timeout=CONF.glance.timeout or UPLOAD_TIMEOUT_SECONDS,
            )
        except requests_exc.RequestException as exc:
            raise exception.ImageUploadFailed(
                image_id=image_id, reason=str(exc)
            ) from exc
        if response.status_code >= 500:
            raise exception.ImageUploadFailed(
                image_id=image_id,
                reason=f"PUT /v2{path} returned {response.status_code}",
            )
        self._raise_for(response, "PUT", path, image_id)

    def update(self, context, image_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Set (or, with None, remove) top-level attributes and properties
        by a JSON patch; keys Glance guards itself are left alone."""
        current = self.show(context, image_id)
        known = {**current["properties"], **current}
        patch = []
        for key, value in changes.items():
            if not _writable(key):
                continue
            pointer = f"/{key}"
            if value is None:
                if key in known:
                    patch.append({"op": "remove", "path": pointer})
            else:
                op = "replace" if key in known else "add"
                patch.append({"op": op, "path": pointer, "value": value})
        path = _image_path(image_id)
        if not patch:
            return current
        response = self._request(
            context,
            "PATCH",
            path,
            data=json.dumps(patch),
            headers={"Content-Type": "application/openstack-images-v2.1-json-patch"},
        )
        self._raise_for(response, "PATCH", path, image_id)
        return normalize(response.json())

    def delete(self, context, image_id: str) -> None:
        path = _image_path(image_id)
        self._raise_for(
            self._request(context, "DELETE", path), "DELETE", path, image_id
        )

    def get_all(
        self, context, filters: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Images ``context`` may see, in Glance's order (newest first),
        every page followed. ``filters`` are Glance's query parameters."""
        params = dict(filters or {})
        images = []
        path = "/images"
        while True:
            response = self._request(context, "GET", path, params=params)
            if response.status_code == 400 and "marker" in params:
                raise exception.MarkerNotFound(marker=params["marker"])
            self._raise_for(response, "GET", path, None)
            body = response.json()
            images.extend(normalize(image) for image in body.get("images", []))
            following = body.get("next")
            if not following or "limit" in (filters or {}):
                return images
            # The next link carries every parameter already.
            path, _, query = following.removeprefix("/v2").partition("?")
            params = dict(urllib.parse.parse_qsl(query))

    def download(self, context, image_id: str, dst_path: str) -> None:
        try:
            response = self._adapter(context).get(
                _image_path(image_id, "/file"),
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
