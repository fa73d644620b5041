"""Which TCP ports on loopback are taken, and finding free ones."""

from __future__ import annotations

import errno
import socket
from collections.abc import Mapping

from nova.launcher.errors import PortsInUse

LOOPBACK = "127.0.0.1"


def port_in_use(port: int, host: str = LOOPBACK) -> bool:
    """Whether binding ``host:port`` would fail because something holds it.

    SO_REUSEADDR is set as gunicorn sets it, so sockets lingering in
    TIME_WAIT after a previous run do not count as "in use".
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True
            raise
    return False


def ports_in_use(ports: Mapping[str, int], host: str = LOOPBACK) -> dict[str, int]:
    """The subset of ``{name: port}`` whose ports are already bound."""
    return {name: port for name, port in ports.items() if port_in_use(port, host)}


def require_free(ports: Mapping[str, int], host: str = LOOPBACK) -> None:
    """Raise :class:`PortsInUse` naming every taken port, or return."""
    taken = ports_in_use(ports, host)
    if taken:
        raise PortsInUse(host, taken)


def free_ports(count: int, host: str = LOOPBACK) -> list[int]:
    """``count`` distinct ports the kernel reports free right now.

    All sockets stay open until every port is picked so the kernel cannot
    hand out the same one twice; another process may still grab one before
    the caller binds it, which callers see as :class:`PortsInUse`.
    """
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.bind((host, 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()
