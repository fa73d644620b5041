"""Readiness probes: how the supervisor decides a started process is usable."""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Protocol

# The probed services are on loopback: never go through an HTTP proxy.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ReadinessProbe(Protocol):
    """Something that answers "is the process ready yet?" without blocking long."""

    def describe(self) -> str:
        """A short human description, used in progress and error messages."""
        ...

    def check(self, age: float) -> bool:
        """True once ready; ``age`` is seconds since the process started."""
        ...


@dataclass(frozen=True)
class HttpProbe:
    """Ready when ``GET url`` gets any HTTP answer below 500.

    Version documents answer 200 (Keystone ``/v3``, Placement ``/``) or 300
    (Glance ``/``); all mean the WSGI application loaded.
    """

    url: str
    timeout: float = 2.0

    def describe(self) -> str:
        return f"GET {self.url}"

    def check(self, age: float) -> bool:
        request = urllib.request.Request(
            self.url, headers={"Accept": "application/json"}
        )
        try:
            with _OPENER.open(request, timeout=self.timeout) as response:
                return response.status < 500
        except urllib.error.HTTPError as exc:
            return exc.code < 500
        except (OSError, http.client.HTTPException):
            return False


@dataclass(frozen=True)
class AliveProbe:
    """Ready once the process has stayed alive for ``seconds``.

    For daemons that serve no HTTP (scheduler, conductor, compute): a crash on
    bad configuration happens within the first seconds of start-up.
    """

    seconds: float = 3.0

    def describe(self) -> str:
        return f"alive for {self.seconds:g} s"

    def check(self, age: float) -> bool:
        return age >= self.seconds
