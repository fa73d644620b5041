"""``nova-api``: the Compute API, served by gunicorn with threaded workers.

Usage: ``nova-api --config-file /etc/nova/nova.conf [--log-file ...]``. It
listens on ``osapi_compute_listen:osapi_compute_listen_port`` (default
0.0.0.0:8774) with ``osapi_compute_workers`` processes (default: one per
CPU), each serving requests on native threads, and runs in the foreground
until SIGTERM (which lets in-flight requests finish) or SIGINT.
"""

from __future__ import annotations

import warnings

# oslo.messaging (imported by nova.conf) imports eventlet, which warns that
# it is deprecated; nova never runs on eventlet.
warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")

import logging  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

from gunicorn.app.base import BaseApplication  # noqa: E402

import nova.conf  # noqa: E402
from nova import config, objects  # noqa: E402

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Native threads are not green threads: one per concurrent request is
# cheap only up to a point, whatever [wsgi] default_pool_size allows.
MAX_THREADS_PER_WORKER = 64


class ComputeAPIServer(BaseApplication):
    """gunicorn configured from nova's options rather than its command line
    (which belongs to oslo.config)."""

    def __init__(self, options: dict) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        # Built in each worker after the fork, so database engines and
        # connection pools are never shared between processes.
        objects.register_all()
        from nova.api.openstack.compute import wsgi_app
        from nova.objects import flavor  # noqa: F401  (registers Flavor)

        return wsgi_app.build_app(CONF)


# gunicorn has no "forever": a day stands for [wsgi] client_socket_timeout = 0.
KEEPALIVE_FOREVER = 86400


def _keepalive_seconds() -> int:
    """How long an idle client connection stays open: [wsgi]
    client_socket_timeout, as upstream. A short one closes connections that
    clients polling every few seconds (the CLIs poll every 5 s) are about to
    reuse, and the request then fails with the connection reset."""
    if not CONF.wsgi.keep_alive:
        return 0
    return CONF.wsgi.client_socket_timeout or KEEPALIVE_FOREVER


def server_options() -> dict:
    """gunicorn settings derived from the loaded nova configuration."""
    workers = CONF.osapi_compute_workers or os.cpu_count() or 1
    return {
        "bind": f"{CONF.osapi_compute_listen}:{CONF.osapi_compute_listen_port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": max(1, min(CONF.wsgi.default_pool_size, MAX_THREADS_PER_WORKER)),
        "keepalive": _keepalive_seconds(),
        "graceful_timeout": CONF.graceful_shutdown_timeout or 30,
        "limit_request_field_size": CONF.wsgi.max_header_line,
        "proc_name": "nova-api",
        "accesslog": "-",
        "control_socket_disable": True,
    }


def main(argv: Sequence[str] | None = None) -> int:
    config.parse_args(list(sys.argv if argv is None else argv))
    options = server_options()
    LOG.info(
        "Compute API listening on %s with %d workers of %d threads",
        options["bind"],
        options["workers"],
        options["threads"],
    )
    ComputeAPIServer(options).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
