"""``nova-serialproxy``: the WebSocket proxy to the instances' serial
consoles of one cell.

Usage: ``nova-serialproxy --config-file /etc/nova/nova.conf``. It listens on
``[serial_console] serialproxy_host:serialproxy_port`` (default
0.0.0.0:6083) and admits WebSockets whose ``serial`` console token is valid
in the cell database ``[database] connection``; it serves no web page. It
runs in the foreground until SIGTERM or SIGINT.
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
        "nova-serialproxy",
        console_api.SERIAL,
        lambda: (
            CONF.serial_console.serialproxy_host,
            CONF.serial_console.serialproxy_port,
        ),
        lambda: None,
    )


if __name__ == "__main__":
    sys.exit(main())
