"""What the console proxy commands share: parse the configuration, build
the proxy's server for one console type and serve it in the foreground
until SIGTERM or SIGINT."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence

from oslo_log import log as logging

import nova.conf
from nova import config, objects
from nova.console import websocketproxy

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def run(
    argv: Sequence[str] | None,
    binary: str,
    console_type: str,
    address: Callable[[], tuple[str, int]],
    web: Callable[[], str | None],
) -> int:
    """Serve ``console_type`` consoles on ``address()`` with the web client
    from ``web()`` (None: WebSockets only) until signalled; 2 when the web
    client directory is missing."""
    config.parse_args(list(sys.argv if argv is None else argv))
    objects.register_all()
    directory = web()
    if directory is not None and not os.path.isdir(directory):
        LOG.error("The web client directory %s does not exist", directory)
        print(f"{binary}: no web client at {directory}", file=sys.stderr)
        return 2
    host, port = address()
    server = websocketproxy.NovaWebSocketProxy(host, port, directory, console_type)

    def stop(signum, frame) -> None:
        # shutdown() waits for serve_forever, so not from its own thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    LOG.info(
        "%s proxy listening on %s:%s, web client from %s",
        console_type,
        host,
        server.server_address[1],
        directory or "nowhere (WebSockets only)",
    )
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
