"""``nova-serialproxy``: the WebSocket proxy to the instances' serial
consoles of one cell.

Usage: ``nova-serialproxy --config-file /etc/nova/nova.conf``. It listens on
``[serial_console] serialproxy_host:serialproxy_port`` (default
0.0.0.0:6083) and admits WebSockets whose ``serial`` console token is valid
in the cell database ``[database] connection``. Upstream ships no web client
for serial consoles; this proxy serves a terminal page of its own at its
root: the console URL with ``http`` for ``ws`` (``https`` for ``wss``)
opens it in a browser. It runs in the foreground until SIGTERM or SIGINT.
"""

from __future__ import annotations

import warnings

# oslo.messaging (imported by nova.conf) imports eventlet, which warns that
# it is deprecated; nova never runs on eventlet.
warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")

import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

import nova.conf  # noqa: E402
from nova.cmd import baseproxy  # noqa: E402
from nova.console import api as console_api  # noqa: E402

CONF = nova.conf.CONF
# The terminal page, shipped in the package.
WEB = os.path.join(os.path.dirname(console_api.__file__), "serial_web")


def main(argv: Sequence[str] | None = None) -> int:
    return baseproxy.run(
        argv,
        "nova-serialproxy",
        console_api.SERIAL,
        lambda: (
            CONF.serial_console.serialproxy_host,
            CONF.serial_console.serialproxy_port,
        ),
        lambda: WEB,
    )


if __name__ == "__main__":
    sys.exit(main())
