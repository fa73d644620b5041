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

import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

import nova.conf  # noqa: E402
from nova.cmd import baseproxy  # noqa: E402
from nova.console import api as console_api  # noqa: E402

CONF = nova.conf.CONF


def main(argv: Sequence[str] | None = None) -> int:
    return baseproxy.run(
        argv,
        "nova-novncproxy",
        console_api.NOVNC,
        lambda: (CONF.vnc.novncproxy_host, CONF.vnc.novncproxy_port),
        lambda: CONF.web,
    )


if __name__ == "__main__":
    sys.exit(main())
