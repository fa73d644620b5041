"""Vendor data: what the operator adds to an instance's metadata.

``vendor_data.json`` is the JSON file ``[api] vendordata_jsonfile_path``
names (the StaticJSON provider). ``vendor_data2.json`` holds one entry per
``[api] vendordata_dynamic_targets`` entry (``name@url``): what that REST
service answered to a POST describing the instance, called through a
keystoneauth1 session authenticated with ``[vendordata_dynamic_auth]``
(the DynamicJSON provider).
"""

from __future__ import annotations

import json
import threading
from typing import Any

from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import loading as ks_loading
from oslo_log import log as logging

import nova.conf
from nova import exception

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

AUTH_GROUP = "vendordata_dynamic_auth"

_session_lock = threading.Lock()
_session = None


def _keystone_session():
    """The process's session for dynamic vendor data services; it carries
    no auth when ``[vendordata_dynamic_auth]`` names no auth type."""
    global _session
    with _session_lock:
        if _session is None:
            auth = ks_loading.load_auth_from_conf_options(CONF, AUTH_GROUP)
            _session = ks_loading.load_session_from_conf_options(
                CONF, AUTH_GROUP, auth=auth
            )
        return _session


def reset() -> None:
    """Forget the session (tests change the options between cases)."""
    global _session
    with _session_lock:
        _session = None


def _static_json() -> dict[str, Any]:
    path = CONF.api.vendordata_jsonfile_path
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except (OSError, ValueError) as exc:
        LOG.warning("Vendor data file %s is unusable: %s", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


class VendorData:
    """The vendor data of one instance, fetched when first asked for."""

    def __init__(self, instance) -> None:
        self.instance = instance
        self._dynamic: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def static(self) -> dict[str, Any]:
        if "StaticJSON" not in CONF.api.vendordata_providers:
            return {}
        return _static_json()

    def dynamic(self) -> dict[str, Any]:
        """One answer per target; a failed target is left out unless
        ``vendordata_dynamic_failure_fatal``."""
        if "DynamicJSON" not in CONF.api.vendordata_providers:
            return {}
        with self._lock:
            if self._dynamic is None:
                self._dynamic = {}
                for target in CONF.api.vendordata_dynamic_targets:
                    name, separator, url = target.partition("@")
                    if not separator or not name or not url:
                        LOG.warning(
                            "Ignoring vendor data target %r: not name@url", target
                        )
                        continue
                    answer = self._call(name, url)
                    if answer is not None:
                        self._dynamic[name] = answer
            return self._dynamic

    def _request_body(self) -> dict[str, Any]:
        instance = self.instance
        return {
            "project-id": instance.project_id,
            "instance-id": instance.uuid,
            "image-id": instance.image_ref,
            "user-data": instance.user_data,
            "hostname": instance.hostname,
            "metadata": dict(instance.metadata),
        }

    def _call(self, name: str, url: str) -> Any:
        options = CONF.api
        try:
            response = _keystone_session().post(
                url,
                json=self._request_body(),
                headers={"Accept": "application/json"},
                timeout=(
                    options.vendordata_dynamic_connect_timeout,
                    options.vendordata_dynamic_read_timeout,
                ),
                verify=options.vendordata_dynamic_ssl_certfile or True,
                raise_exc=True,
                authenticated=CONF[AUTH_GROUP].auth_type is not None,
            )
            return response.json()
        except (ks_exceptions.ClientException, ValueError) as exc:
            LOG.warning("Vendor data target %s (%s) failed: %s", name, url, exc)
            if options.vendordata_dynamic_failure_fatal:
                raise exception.VendorDataUnavailable(target=name) from exc
            return None
