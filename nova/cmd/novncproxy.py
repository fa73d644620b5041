"""``nova-novncproxy``: the noVNC web client and the WebSocket proxy to the
instances' VNC consoles of one cell.

Usage: ``nova-novncproxy --config-file /etc/nova/nova.conf``. It listens on
``[vnc] novncproxy_host:novncproxy_port`` (default 0.0.0.0:6080), serves the
web client from ``[DEFAULT] web`` and admits WebSockets whose console token
is valid in the cell database ``[database] connection``. It runs in the
foreground until SIGTERM or SIGINT.
"""

from __future__ import annotations

import warnings

# oslo.messaging (imported by nova.conf) imports eventlet, which warns that
# it is deprecated; nova never runs on eventlet.
warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")

import os  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from collections.abc import Sequence  # noqa: E402

from oslo_log import log as logging  # noqa: E402

import nova.conf  # noqa: E402
from nova import config, objects  # noqa: E402
from nova.console import websocketproxy  # noqa: E402

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def main(argv: Sequence[str] | None = None) -> int:
    config.parse_args(list(sys.argv if argv is None else argv))
    objects.register_all()
    if not os.path.isdir(CONF.web):
        LOG.error("The web client directory %s does not exist", CONF.web)
        print(f"nova-novncproxy: no web client at {CONF.web}", file=sys.stderr)
        return 2
    server = websocketproxy.NovaWebSocketProxy(
        CONF.vnc.novncproxy_host, CONF.vnc.novncproxy_port, CONF.web
    )

    def stop(signum, frame) -> None:
        # shutdown() waits for serve_forever, so not from its own thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    LOG.info(
        "noVNC proxy listening on %s:%s, web client from %s",
        CONF.vnc.novncproxy_host,
        server.server_address[1],
        CONF.web,
    )
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
