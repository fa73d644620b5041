"""The metadata API as one WSGI application (what ``nova-metadata-api``
serves and what an all-in-one process can mount)."""

from __future__ import annotations

from oslo_config import cfg
from oslo_middleware import request_id

import nova.conf
from nova.api.metadata import handler

CONF = nova.conf.CONF


def build_app(conf: cfg.ConfigOpts = CONF):
    """The metadata API WSGI application for the loaded configuration."""
    return request_id.RequestId(handler.MetadataRequestHandler())
