"""The Compute API as one WSGI application.

Layers, outermost first:

1. request ids (``x-openstack-request-id`` and the legacy
   ``x-compute-request-id`` on every response);
2. :class:`~nova.api.openstack.faults.FaultWrapper`: nothing escapes as a
   traceback;
3. :class:`~nova.api.guards.RequestGuard`: oversized bodies and undecodable
   paths are refused in Nova's fault format;
4. ``/healthcheck`` (:mod:`nova.api.healthcheck`), unauthenticated;
5. the version documents, served without authentication, or
   authentication (keystonemiddleware or noauth2) in front of
6. the pecan application routing through the table.
"""

from __future__ import annotations

import webob.dec
from oslo_config import cfg
from oslo_middleware import request_id

import nova.conf
from nova import rpc
from nova.api import guards, healthcheck
from nova.api.openstack import auth, faults, router
from nova.api.openstack.compute import routes
from nova.api.openstack.links import API_PREFIX
from nova.api.openstack.request import Request

CONF = nova.conf.CONF

# Tries again to reach a broker that is down before a request gives up
# with 503 (a few seconds, at oslo.messaging's retry interval).
RPC_SEND_RETRIES = 2


class ComputeRequestId(request_id.RequestId):
    # Upstream's clients still read the pre-oslo header name.
    compat_headers = ["x-compute-request-id"]


class _PublicOrAuthenticated:
    """Version documents go straight to the API; the rest through auth."""

    def __init__(self, api, authenticated_api, public_paths) -> None:
        self.api = api
        self.authenticated_api = authenticated_api
        self.public_paths = public_paths

    @webob.dec.wsgify(RequestClass=Request)
    def __call__(self, req: Request):
        path = req.path_info.rstrip("/") or "/"
        application = self.api if path in self.public_paths else self.authenticated_api
        return req.get_response(application)


def build_app(conf: cfg.ConfigOpts = CONF):
    """The Compute API WSGI application for the loaded configuration."""
    rpc.bound_sends(RPC_SEND_RETRIES)
    api = router.make_app(routes.ROUTES, API_PREFIX)
    if conf.api.auth_strategy == "noauth2":
        authenticated = auth.NoAuth2(api)
    else:
        authenticated = auth.keystone_pipeline(api, conf)
    dispatcher = _PublicOrAuthenticated(api, authenticated, routes.PUBLIC_PATHS)
    guarded = guards.RequestGuard(
        healthcheck.WithHealthcheck(dispatcher, conf), conf, faults.fault_response
    )
    return ComputeRequestId(faults.FaultWrapper(guarded))
