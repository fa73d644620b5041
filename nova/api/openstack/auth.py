"""Who is calling: request contexts from Keystone tokens or from noauth2.

``[api] auth_strategy = keystone`` puts keystonemiddleware's ``auth_token``
in front of the API; :class:`KeystoneContext` then turns the identity
headers it sets (``X-User-Id``, ``X-Project-Id``, ``X-Roles``, the service
catalog, ...) into a :class:`nova.context.RequestContext`.

``noauth2`` trusts the token ``user:project`` a caller presents: anyone can
be anyone, which is only fit for development and tests.
"""

from __future__ import annotations

import json
import logging

import webob.dec

from nova import context as nova_context
from nova import exception, policy
from nova.api.openstack import faults
from nova.api.openstack.request import Request

LOG = logging.getLogger(__name__)

ENV_CONTEXT = "nova.context"

# Catalog entries nova calls on the user's behalf; the rest is not kept.
CATALOG_SERVICE_TYPES = frozenset(
    {"image", "block-storage", "volumev3", "key-manager", "placement", "network"}
)

NOAUTH_ROLES = ["member", "reader"]


def _finish(context: nova_context.RequestContext) -> nova_context.RequestContext:
    # is_admin follows the policy's definition of an admin, as everywhere.
    context.is_admin = policy.check_is_admin(context)
    return context


class NoAuth2:
    """noauth2: the ``X-Auth-Token`` is ``user`` or ``user:project``.

    The user ``admin`` gets the admin role; every user gets the member and
    reader roles of the named project (the project defaults to the user).
    """

    def __init__(self, application) -> None:
        self.application = application
        LOG.warning(
            "[api] auth_strategy = noauth2: the Compute API authenticates "
            "NOBODY. Every caller is trusted to be the user and project its "
            "X-Auth-Token names, including 'admin'. Never expose this API "
            "beyond a development machine."
        )

    @webob.dec.wsgify(RequestClass=Request)
    def __call__(self, req: Request):
        token = req.headers.get("X-Auth-Token")
        if not token:
            return faults.fault_response(req, exception.NotAuthenticated())
        user_id, _, project_id = token.partition(":")
        project_id = project_id or user_id
        roles = list(NOAUTH_ROLES)
        if user_id == "admin":
            roles.append("admin")
        context = nova_context.RequestContext(
            user_id=user_id,
            project_id=project_id,
            roles=roles,
            remote_address=req.remote_addr,
            request_id=req.environ.get("openstack.request_id"),
            global_request_id=req.environ.get("openstack.global_request_id"),
        )
        req.environ[ENV_CONTEXT] = _finish(context)
        return req.get_response(self.application)


def _service_catalog(req: Request) -> list[dict]:
    raw = req.headers.get("X-Service-Catalog")
    if not raw:
        return []
    try:
        catalog = json.loads(raw)
    except ValueError:
        LOG.warning("Ignoring a service catalog that is not JSON")
        return []
    return [entry for entry in catalog if entry.get("type") in CATALOG_SERVICE_TYPES]


class KeystoneContext:
    """Builds the request context from keystonemiddleware's headers."""

    def __init__(self, application) -> None:
        self.application = application

    @webob.dec.wsgify(RequestClass=Request)
    def __call__(self, req: Request):
        if req.headers.get("X-Identity-Status", "Confirmed") != "Confirmed":
            return faults.fault_response(req, exception.NotAuthenticated())
        context = nova_context.RequestContext.from_environ(
            req.environ,
            service_catalog=_service_catalog(req),
            remote_address=req.remote_addr,
        )
        if context.user_id is None or context.project_id is None:
            return faults.fault_response(req, exception.NotAuthenticated())
        # The user's authenticated session, for calls to other services
        # made on the user's behalf (Glance with the user's token).
        context.user_auth_plugin = req.environ.get("keystone.token_auth")
        req.environ[ENV_CONTEXT] = _finish(context)
        return req.get_response(self.application)


def keystone_pipeline(application, conf):
    """``application`` behind auth_token and :class:`KeystoneContext`.

    auth_token reads its options from ``[keystone_authtoken]`` of the
    loaded nova configuration.
    """
    from keystonemiddleware import auth_token

    return auth_token.AuthProtocol(
        KeystoneContext(application), {"oslo_config_config": conf}
    )
