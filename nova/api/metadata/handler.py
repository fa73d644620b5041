"""The metadata API's WSGI handler: who is asking, then what they asked for.

Behind Neutron's metadata proxy (``[neutron] service_metadata_proxy``) a
request names its instance in ``X-Instance-ID`` and its project in
``X-Tenant-ID``, and proves the proxy sent it with
``X-Instance-ID-Signature``, the HMAC-SHA256 of the instance id keyed with
``metadata_proxy_shared_secret``. Otherwise the instance is the one whose
fixed IP the request comes from (``X-Forwarded-For`` is believed only with
``[api] use_forwarded_for``, i.e. behind a trusted proxy).

An instance's metadata is cached for ``[api] metadata_cache_expiration``
seconds, so a guest polling its metadata costs no database round trip.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from typing import Any

import webob
import webob.dec
import webob.exc
from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.metadata import instance as instance_metadata
from nova.metadata import password

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

TEXT = "text/plain"
# Longest caller-supplied id or address a log line repeats.
MAX_LOGGED_ID = 64
# What an instance's metadata needs loaded.
_EXPECTED_ATTRS = ["metadata", "system_metadata", "info_cache", "flavor"]


def instance_id_signature(instance_id: str, secret: str) -> str:
    """The signature the metadata proxy sends with ``instance_id``."""
    return hmac.new(
        secret.encode("utf-8"), instance_id.encode("utf-8"), hashlib.sha256
    ).hexdigest()


class _Cache:
    """Metadata by key (``uuid:...``/``ip:...``) until it expires."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, instance_metadata.InstanceMetadata]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> instance_metadata.InstanceMetadata | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= time.monotonic():
                del self._entries[key]
                return None
            return entry[1]

    def put(self, key: str, value: instance_metadata.InstanceMetadata) -> None:
        ttl = CONF.api.metadata_cache_expiration
        if ttl <= 0:
            return
        with self._lock:
            self._entries[key] = (time.monotonic() + ttl, value)

    def forget(self, instance_uuid: str) -> None:
        with self._lock:
            for key in [
                key
                for key, (_, value) in self._entries.items()
                if value.uuid == instance_uuid
            ]:
                del self._entries[key]


def _single_header(req: webob.Request, name: str) -> str:
    value = req.headers.get(name)
    if not value:
        raise webob.exc.HTTPBadRequest(f"{name} header is missing")
    # The WSGI server joins repeated headers with commas; none of these
    # values contains one.
    if "," in value:
        raise webob.exc.HTTPBadRequest(f"Multiple {name} headers found")
    return value.strip()


def _cell_contexts(context):
    """A context per cell the instance may live in: only the local cell
    with ``local_metadata_per_cell``, else every cell but cell0 (whose
    instances never ran, so have no address)."""
    if CONF.api.local_metadata_per_cell:
        yield context
        return
    for cell in objects.CellMappingList.get_all(context):
        if cell.is_cell0():
            continue
        with nova_context.target_cell(context, cell) as cctxt:
            yield cctxt


def get_instance_by_uuid(instance_uuid: str):
    """The live instance ``instance_uuid`` from its cell (its context stays
    targeted there, so ``save`` writes to that cell)."""
    context = nova_context.get_admin_context()
    if CONF.api.local_metadata_per_cell:
        return objects.Instance.get_by_uuid(
            context, instance_uuid, expected_attrs=_EXPECTED_ATTRS
        )
    try:
        mapping = objects.InstanceMapping.get_by_instance_uuid(context, instance_uuid)
    except exception.InstanceMappingNotFound as exc:
        raise exception.InstanceNotFound(instance_id=instance_uuid) from exc
    if mapping.cell_mapping is None:
        raise exception.InstanceNotFound(instance_id=instance_uuid)
    with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
        return objects.Instance.get_by_uuid(
            cctxt, instance_uuid, expected_attrs=_EXPECTED_ATTRS
        )


def get_instance_by_address(address: str):
    """The live instance with fixed IP ``address``, in any cell."""
    context = nova_context.get_admin_context()
    # Addresses appear JSON-quoted in the stored network info.
    quoted = json.dumps(address)
    for cctxt in _cell_contexts(context):
        caches = objects.InstanceInfoCacheList.get_by_network_info_containing(
            cctxt, quoted
        )
        for cache in caches:
            fixed_ips = cache.network_info.fixed_ips()
            if address in [ip["address"] for ip in fixed_ips]:
                return objects.Instance.get_by_uuid(
                    cctxt, cache.instance_uuid, expected_attrs=_EXPECTED_ATTRS
                )
    return None


class MetadataRequestHandler:
    """The WSGI application serving both metadata formats."""

    def __init__(self) -> None:
        self._cache = _Cache()

    @webob.dec.wsgify
    def __call__(self, req: webob.Request) -> webob.Response:
        path = [part for part in req.path_info.split("/") if part]
        if not path:
            return _render(instance_metadata.InstanceMetadata.ec2_versions())
        try:
            if CONF.neutron.service_metadata_proxy:
                metadata = self._by_instance_id(req)
            else:
                metadata = self._by_remote_address(req)
            if path[0] == "openstack":
                if (
                    path[1:]
                    and path[-1] == instance_metadata.PASSWORD
                    and req.method == "POST"
                ):
                    return self._post_password(req, metadata, path[1])
                data = metadata.lookup_openstack(path[1:])
            else:
                data = metadata.lookup_ec2(path)
        except exception.VendorDataUnavailable as exc:
            raise webob.exc.HTTPServiceUnavailable(str(exc)) from exc
        if req.method not in ("GET", "HEAD"):
            raise webob.exc.HTTPMethodNotAllowed()
        if data is None:
            raise webob.exc.HTTPNotFound()
        return _render(data, json_file=path[-1].endswith(".json"))

    # -- who is asking -------------------------------------------------

    def _metadata(self, key: str, load) -> instance_metadata.InstanceMetadata | None:
        metadata = self._cache.get(key)
        if metadata is None:
            try:
                instance = load()
            except exception.InstanceNotFound:
                return None
            if instance is None:
                return None
            metadata = instance_metadata.InstanceMetadata(instance)
            self._cache.put(key, metadata)
        return metadata

    def _by_instance_id(self, req: webob.Request) -> instance_metadata.InstanceMetadata:
        instance_id = _single_header(req, "X-Instance-ID")
        tenant_id = _single_header(req, "X-Tenant-ID")
        signature = _single_header(req, "X-Instance-ID-Signature")
        expected = instance_id_signature(
            instance_id, CONF.neutron.metadata_proxy_shared_secret or ""
        )
        if not hmac.compare_digest(expected, signature):
            LOG.warning(
                "X-Instance-ID-Signature of instance %s from %s does not match",
                # The caller's header, whatever its length: a uuid's worth.
                instance_id[:MAX_LOGGED_ID],
                req.remote_addr,
            )
            raise webob.exc.HTTPForbidden("Invalid proxy request signature.")
        metadata = self._metadata(
            f"uuid:{instance_id}", lambda: get_instance_by_uuid(instance_id)
        )
        # Another project's instance is as absent as a missing one.
        if metadata is None or metadata.project_id != tenant_id:
            raise webob.exc.HTTPNotFound()
        return metadata

    def _by_remote_address(
        self, req: webob.Request
    ) -> instance_metadata.InstanceMetadata:
        address = req.remote_addr
        if CONF.api.use_forwarded_for:
            forwarded = req.headers.get("X-Forwarded-For")
            if forwarded:
                # The client is the left-most hop the proxy recorded.
                address = forwarded.split(",")[0].strip()
        if not address:
            raise webob.exc.HTTPBadRequest("The client address is unknown.")
        metadata = self._metadata(
            f"ip:{address}", lambda: get_instance_by_address(address)
        )
        if metadata is None:
            LOG.info("No instance has the address %s", address[:MAX_LOGGED_ID])
            raise webob.exc.HTTPNotFound()
        return metadata

    # -- the guest's password ------------------------------------------

    def _post_password(
        self,
        req: webob.Request,
        metadata: instance_metadata.InstanceMetadata,
        version: str,
    ) -> webob.Response:
        if metadata.lookup_openstack([version, instance_metadata.PASSWORD]) is None:
            raise webob.exc.HTTPNotFound()
        body = req.body
        if len(body) > password.MAX_SIZE:
            raise webob.exc.HTTPBadRequest("Request is too large.")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise webob.exc.HTTPBadRequest("The password is not text.") from exc
        # Read afresh: the cached copy may predate another POST.
        instance = get_instance_by_uuid(metadata.uuid)
        if password.extract_password(instance):
            raise webob.exc.HTTPConflict("Password already set.")
        password.set_password(instance, text)
        self._cache.forget(metadata.uuid)
        return webob.Response(status=200, content_type=TEXT, body=b"")


def _render(data: Any, json_file: bool = False) -> webob.Response:
    """A file as is; a directory as its entries, one a line, with ``/``
    after those that are directories themselves (but for EC2's public keys,
    listed as ``index=name``)."""
    if isinstance(data, bytes):
        body = data
    elif isinstance(data, dict):
        body = "\n".join(
            f"{key}/" if isinstance(value, dict) and "=" not in key else key
            for key, value in sorted(data.items())
        ).encode()
    elif isinstance(data, list):
        body = "\n".join(str(item) for item in data).encode()
    else:
        body = str(data).encode()
    content_type = "application/json" if json_file else TEXT
    return webob.Response(body=body, content_type=content_type, charset=None)
