"""``nova-spicehtml5proxy``: the SPICE HTML5 web client and the WebSocket
proxy to the instances' SPICE consoles of one cell.

Usage: ``nova-spicehtml5proxy --config-file /etc/nova/nova.conf``. It
listens on ``[spice] html5proxy_host:html5proxy_port`` (default
0.0.0.0:6082), serves the web client from ``[DEFAULT] web`` (for this
command ``/usr/share/spice-html5`` unless set, where Debian's spice-html5
package puts it) and admits WebSockets whose ``spice-html5`` console token
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
WEB = "/usr/share/spice-html5"


def main(argv: Sequence[str] | None = None) -> int:
    # The shared [DEFAULT] web names noVNC's directory by default.
    CONF.set_default("web", WEB)
    return baseproxy.run(
        argv,
        "nova-spicehtml5proxy",
        console_api.SPICE_HTML5,
        lambda: (CONF.spice.html5proxy_host, CONF.spice.html5proxy_port),
        lambda: CONF.web,
    )


if __name__ == "__main__":
    sys.exit(main())
