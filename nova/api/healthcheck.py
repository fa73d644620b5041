"""``/healthcheck`` on both APIs: oslo.middleware's health check, answered
without authentication, as upstream's ``[app:healthcheck]`` serves it.

``[healthcheck]`` configures it (``backends``, ``detailed``,
``allowed_source_ranges`` ...); with ``backends = disable_by_file`` an
operator takes an API out of a load balancer by creating a file.
"""

from __future__ import annotations

import webob
import webob.dec
from oslo_config import cfg
from oslo_middleware import healthcheck

PATH = "/healthcheck"


class WithHealthcheck:
    """``/healthcheck`` to the health check, every other path to ``application``."""

    def __init__(self, application, conf: cfg.ConfigOpts) -> None:
        self.application = application
        # A request the check ignores (from outside [healthcheck]
        # allowed_source_ranges) goes on to the application.
        self.healthcheck = healthcheck.Healthcheck(application, conf)

    @webob.dec.wsgify
    def __call__(self, req: webob.Request):
        if req.path_info.rstrip("/") == PATH:
            return req.get_response(self.healthcheck)
        return req.get_response(self.application)
