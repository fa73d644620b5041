"""Readiness probes: how the supervisor decides a started process is usable."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
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


@dataclass(frozen=True)
class PathProbe:
    """Ready once ``path`` exists (a daemon's control or database socket)."""

    path: Path

    def describe(self) -> str:
        return f"{self.path} exists"

    def check(self, age: float) -> bool:
        return self.path.exists()


@dataclass(frozen=True)
class QueueConsumersProbe:
    """Ready once every queue of ``queues`` on the RabbitMQ of
    ``transport_url`` has a consumer (an RPC server listening on it).

    For RPC servers that log nothing when they start consuming; a queue not
    declared yet counts as not ready.
    """

    transport_url: str
    queues: tuple[str, ...]

    def describe(self) -> str:
        return f"consumers on {', '.join(self.queues)}"

    def check(self, age: float) -> bool:
        import kombu

        url = self.transport_url.replace("rabbit://", "amqp://", 1)
        try:
            with kombu.Connection(url, connect_timeout=2) as connection:
                for queue in self.queues:
                    channel = connection.channel()
                    try:
                        _, _, consumers = channel.queue_declare(queue, passive=True)
                    finally:
                        channel.close()
                    if not consumers:
                        return False
            return True
        except Exception:  # noqa: BLE001 - absent queue, broker not up yet
            return False


@dataclass(frozen=True)
class LogLineProbe:
    """Ready once ``text`` appears in the log file ``path`` past ``offset``.

    For daemons that serve no HTTP but say in their log when they are ready
    (ours: "... consuming topic ..."). ``offset`` is the log's size when the
    process was started, so the line of an earlier run does not count; a log
    that has since shrunk (rotated, truncated) is read from its start.
    """

    path: Path
    text: str
    offset: int = 0

    @classmethod
    def from_now(cls, path: Path, text: str) -> LogLineProbe:
        """A probe that ignores everything already in ``path``."""
        try:
            offset = path.stat().st_size
        except FileNotFoundError:
            offset = 0
        return cls(path, text, offset)

    def describe(self) -> str:
        return f"{self.path.name} says {self.text!r}"

    def check(self, age: float) -> bool:
        try:
            with self.path.open("rb") as log:
                size = log.seek(0, 2)
                log.seek(self.offset if size >= self.offset else 0)
                return self.text.encode() in log.read()
        except FileNotFoundError:
            return False


@dataclass(frozen=True)
class KeystoneTokenProbe:
    """Ready once Keystone issues a password token and validates it.

    Also warms Keystone up: its policy enforcer is built lazily and not
    thread-safe, so the first requests that arrive together after a start
    can see it half-built (403 on ``identity:validate_token``, or a 500
    ``'Enforcer' object has no attribute '_warning_emitted'``). One
    sequential validation here builds it before anyone else calls.
    """

    url: str  # the identity endpoint, .../v3
    username: str
    password: str
    project: str
    domain: str = "Default"
    timeout: float = 5.0

    def describe(self) -> str:
        return f"a token from {self.url} for {self.username}, validated"

    def _call(self, method: str, path: str, headers: dict, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url.rstrip("/") + path,
            data=data,
            method=method,
            headers={"Accept": "application/json", **headers},
        )
        with _OPENER.open(request, timeout=self.timeout) as response:
            return response.status, response.headers

    def check(self, age: float) -> bool:
        scope = {"project": {"name": self.project, "domain": {"name": self.domain}}}
        user = {
            "name": self.username,
            "password": self.password,
            "domain": {"name": self.domain},
        }
        body = {
            "auth": {
                "identity": {"methods": ["password"], "password": {"user": user}},
                "scope": scope,
            }
        }
        try:
            status, headers = self._call(
                "POST", "/auth/tokens", {"Content-Type": "application/json"}, body
            )
            token = headers.get("X-Subject-Token")
            if status != 201 or not token:
                return False
            status, _ = self._call(
                "GET", "/auth/tokens", {"X-Auth-Token": token, "X-Subject-Token": token}
            )
            return status == 200
        except (OSError, http.client.HTTPException):  # HTTPError is an OSError
            return False
