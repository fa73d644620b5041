"""Requests to Neutron v2.0 with nova's service credentials (``[neutron]``).

The endpoint is ``[neutron] endpoint_override`` or the catalog's. Every
request has a timeout (threads cannot be cancelled); an unreachable or
failing (5xx) Neutron is :class:`~nova.exception.NetworkServiceUnavailable`.
Each caller maps Neutron's 4xx answers to nova's errors itself.
"""

from __future__ import annotations

from typing import Any

from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import exceptions as ks_exc

import nova.conf
from nova import exception, service_session

CONF = nova.conf.CONF

GROUP = "neutron"
# Threads cannot be cancelled: a call to Neutron never waits forever.
DEFAULT_TIMEOUT_SECONDS = 30


def configured() -> bool:
    """Whether ``[neutron]`` names credentials or an endpoint to use."""
    return bool(CONF.neutron.auth_type or CONF.neutron.endpoint_override)


def error_type(response) -> str:
    """The ``NeutronError`` type of an error response ("" if none)."""
    try:
        return response.json()["NeutronError"]["type"]
    except (ValueError, KeyError, TypeError):
        return ""


def error_message(response) -> str:
    """The ``NeutronError`` message of an error response."""
    try:
        return response.json()["NeutronError"]["message"]
    except (ValueError, KeyError, TypeError):
        return response.text[:200]


class NeutronClient:
    """The transport the Neutron-backed APIs of nova share."""

    def _client(self, context) -> ks_adapter.Adapter:
        if not configured():
            raise exception.NetworkServiceNotConfigured(what="Neutron's resources")
        session, auth = service_session.session_and_auth(GROUP)
        url = CONF.neutron.endpoint_override
        try:
            if not url and auth is not None:
                url = auth.get_endpoint(
                    session,
                    service_type=CONF.neutron.service_type,
                    interface=CONF.neutron.valid_interfaces,
                    region_name=CONF.neutron.region_name,
                )
        except (ks_exc.ClientException, ks_exc.ConnectionError) as exc:
            raise exception.NetworkServiceUnavailable(reason=str(exc)) from exc
        if not url:
            raise exception.NetworkServiceUnavailable(
                reason="no network endpoint in the service catalog and no "
                "[neutron] endpoint_override"
            )
        url = url.rstrip("/")
        if not url.endswith("/v2.0"):
            url += "/v2.0"
        return ks_adapter.Adapter(
            session,
            auth=auth,
            endpoint_override=url,
            connect_retries=CONF.neutron.http_retries,
            global_request_id=getattr(context, "global_request_id", None),
        )

    def _call(self, context, method: str, path: str, **kwargs):
        """One request; the response whatever its status.

        :raises NetworkServiceUnavailable: Neutron cannot be reached or
            failed (5xx).
        """
        kwargs.setdefault("timeout", CONF.neutron.timeout or DEFAULT_TIMEOUT_SECONDS)
        try:
            response = self._client(context).request(
                path, method, raise_exc=False, **kwargs
            )
        except (ks_exc.ClientException, ks_exc.ConnectionError) as exc:
            raise exception.NetworkServiceUnavailable(reason=str(exc)) from exc
        if response.status_code >= 500:
            raise exception.NetworkServiceUnavailable(
                reason=f"{method} {path} returned {response.status_code}"
            )
        return response

    def _list(
        self, context, kind: str, missing_ok: bool = False, **params
    ) -> list[dict[str, Any]]:
        """The ``kind`` resources (its path: ``security-groups``) matching
        ``params``; none when ``missing_ok`` and Neutron has no such API
        (``floatingips`` without the router plugin)."""
        response = self._call(context, "GET", f"/{kind}", params=params)
        if missing_ok and response.status_code == 404:
            return []
        if response.status_code != 200:
            raise exception.NetworkServiceUnavailable(
                reason=f"GET /{kind} returned {response.status_code}"
            )
        # The body's key is the path's with underscores (security_groups).
        return response.json()[kind.replace("-", "_")]

    def _show(
        self,
        context,
        kind: str,
        resource_id: str,
        not_found: Exception,
        shared_ok: bool = False,
    ) -> dict[str, Any]:
        """The ``kind`` resource ``resource_id``, if the caller may see it.

        :raises: ``not_found``, when Neutron has none (or refuses the id)
            or the caller may not see it.
        """
        response = self._call(context, "GET", f"/{kind}/{resource_id}")
        if response.status_code in (400, 404):
            raise not_found
        if response.status_code != 200:
            raise exception.NetworkServiceUnavailable(
                reason=f"GET /{kind}/{resource_id} returned {response.status_code}"
            )
        resource = response.json()[kind.replace("-", "_")[:-1]]
        if not self._visible(context, resource, shared_ok=shared_ok):
            raise not_found
        return resource

    @staticmethod
    def _visible(context, resource: dict[str, Any], shared_ok: bool = True) -> bool:
        """Whether the caller may see ``resource``: an admin any, others
        their project's (and shared networks when ``shared_ok``)."""
        if getattr(context, "is_admin", False):
            return True
        if shared_ok and resource.get("shared"):
            return True
        return resource.get("project_id") == context.project_id
