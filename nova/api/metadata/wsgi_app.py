"""The metadata API as one WSGI application (what ``nova-metadata-api``
serves and what an all-in-one process can mount).

Outermost first: request ids, the request guard (oversized bodies and
undecodable paths), ``/healthcheck`` and the metadata handler.
"""

from __future__ import annotations

from oslo_config import cfg
from oslo_middleware import request_id

import nova.conf
from nova.api import guards, healthcheck
from nova.api.metadata import handler

CONF = nova.conf.CONF


def build_app(conf: cfg.ConfigOpts = CONF):
    """The metadata API WSGI application for the loaded configuration."""
    api = healthcheck.WithHealthcheck(handler.MetadataRequestHandler(), conf)
    return request_id.RequestId(guards.RequestGuard(api, conf))
