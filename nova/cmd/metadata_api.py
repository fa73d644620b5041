"""``nova-metadata-api``: the metadata API, served by gunicorn with threaded
workers like ``nova-api``.

Usage: ``nova-metadata-api --config-file /etc/nova/nova.conf``. It listens
on ``metadata_listen:metadata_listen_port`` (default 0.0.0.0:8775) with
``metadata_workers`` processes (default: one per CPU).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence

from nova.cmd import api

CONF = api.CONF
LOG = logging.getLogger(__name__)


class MetadataAPIServer(api.ComputeAPIServer):
    def load(self):
        # Built in each worker after the fork, like the Compute API.
        from nova import objects

        objects.register_all()
        from nova.api.metadata import wsgi_app

        return wsgi_app.build_app(CONF)


def server_options() -> dict:
    """nova-api's gunicorn settings with the metadata API's address and
    worker count."""
    options = api.server_options()
    options.update(
        bind=f"{CONF.metadata_listen}:{CONF.metadata_listen_port}",
        workers=CONF.metadata_workers or os.cpu_count() or 1,
        proc_name="nova-metadata-api",
    )
    return options


def main(argv: Sequence[str] | None = None) -> int:
    api.config.parse_args(list(sys.argv if argv is None else argv))
    options = server_options()
    LOG.info(
        "Metadata API listening on %s with %d workers of %d threads",
        options["bind"],
        options["workers"],
        options["threads"],
    )
    MetadataAPIServer(options).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
