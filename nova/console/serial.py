"""TCP ports of the guests' serial consoles on this compute host.

Each guest's serial port is a TCP listener that QEMU binds on
``[serial_console] proxyclient_address``, at a port from ``[serial_console]
port_range`` that no other guest of this host holds: neither a defined
domain (running or not, its port is in its XML) nor one being defined
right now by this process (reserved here until the domain is gone).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterable

import nova.conf
from nova import exception

CONF = nova.conf.CONF

_lock = threading.Lock()
# (host, port) handed out by this process and not yet released.
_reserved: set[tuple[str, int]] = set()


def port_range() -> tuple[int, int]:
    """``[serial_console] port_range`` as (lowest, highest), both included.

    :raises InvalidInput: the lowest is above the highest, or out of 1-65535.
    """
    low, _, high = CONF.serial_console.port_range.partition(":")
    lowest, highest = int(low), int(high)
    if not 0 < lowest <= highest <= 65535:
        raise exception.InvalidInput(
            reason=f"[serial_console] port_range {CONF.serial_console.port_range} "
            "is not min:max within 1-65535"
        )
    return lowest, highest


def _can_bind(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def acquire_port(host: str, in_use: Iterable[int] = ()) -> int:
    """A port of the range free on ``host``: not in ``in_use`` (the ports
    the host's defined domains hold), not reserved, and bindable now.

    :raises SocketPortRangeExhaustedException: every port is taken.
    """
    lowest, highest = port_range()
    taken = set(in_use)
    with _lock:
        for port in range(lowest, highest + 1):
            if port in taken or (host, port) in _reserved:
                continue
            if _can_bind(host, port):
                _reserved.add((host, port))
                return port
    raise exception.SocketPortRangeExhaustedException(host=host)


def release_port(host: str, port: int) -> None:
    """``port`` of ``host`` may be handed out again."""
    with _lock, contextlib.suppress(KeyError):
        _reserved.remove((host, port))
