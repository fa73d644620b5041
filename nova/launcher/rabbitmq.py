"""RabbitMQ virtual hosts for a deployment, and transport URLs naming them.

Each deployment gets its own vhosts (one for the API-level services, one per
cell), so deployments sharing a broker never see each other's messages.
Vhosts are managed with ``rabbitmqctl``, which must be able to reach the
local node (true for root, or the rabbitmq user, on a stock install).
"""

from __future__ import annotations

import shutil
import subprocess
import urllib.parse
from collections.abc import Sequence

from nova.launcher.errors import LauncherError


def transport_url(broker_url: str, vhost: str) -> str:
    """``rabbit://u:p@host:5672/`` + ``/nova-x`` → ``…:5672/%2Fnova-x``.

    oslo.messaging takes everything after the first ``/`` of the path as the
    virtual host, percent-decoded, so a vhost's own leading slash is encoded.
    """
    parts = urllib.parse.urlsplit(broker_url)
    path = "/" + urllib.parse.quote(vhost, safe="")
    return urllib.parse.urlunsplit(
        (parts.scheme, parts.netloc, path, parts.query, parts.fragment)
    )


def broker_user(broker_url: str) -> str:
    """The user name in a transport URL (``guest`` if none is given)."""
    return urllib.parse.urlsplit(broker_url).username or "guest"


class RabbitVhosts:
    """Create and delete vhosts with ``rabbitmqctl``, idempotently."""

    def __init__(self, rabbitmqctl: str = "rabbitmqctl", timeout: float = 60.0) -> None:
        self.rabbitmqctl = rabbitmqctl
        self.timeout = timeout

    def _run(self, *args: str) -> str:
        executable = shutil.which(self.rabbitmqctl)
        if executable is None:
            raise LauncherError(
                f"{self.rabbitmqctl} not found: install rabbitmq-server (our "
                "daemons talk over RabbitMQ) and run the launcher as a user "
                "allowed to manage it"
            )
        argv: Sequence[str] = (executable, "-q", *args)
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise LauncherError(
                f"{' '.join(argv)} timed out after {self.timeout:g} s"
            ) from None
        if done.returncode != 0:
            raise LauncherError(
                f"{' '.join(argv)} failed (exit {done.returncode}): "
                f"{(done.stderr or done.stdout).strip()}"
            )
        return done.stdout

    def list(self) -> list[str]:
        out = self._run("list_vhosts", "--no-table-headers")
        return [line.strip() for line in out.splitlines() if line.strip()]

    def ensure(self, vhost: str, user: str = "guest") -> None:
        """Create ``vhost`` if missing and give ``user`` full rights on it.

        Each ``rabbitmqctl`` call boots an Erlang VM (~1 s), so this does not
        list first: RabbitMQ 3.x accepts ``add_vhost`` of an existing vhost,
        and older versions' "already exists" error is ignored.
        """
        try:
            self._run("add_vhost", vhost)
        except LauncherError as exc:
            if "already_exists" not in str(exc) and "already exists" not in str(exc):
                raise
        self._run("set_permissions", "-p", vhost, user, ".*", ".*", ".*")

    def delete(self, vhost: str) -> None:
        """Delete ``vhost`` if it exists (one ``rabbitmqctl`` call, no list)."""
        try:
            self._run("delete_vhost", vhost)
        except LauncherError as exc:
            if "does not exist" not in str(exc) and "no_such_vhost" not in str(exc):
                raise
