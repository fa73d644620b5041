"""A deployment's settings, saved in its state directory for resuming.

Everything that shapes generated files (ports, database backend, passwords,
names) is decided once, at the first ``start``, and written to
``deployment.json``; later starts read it back so a resumed deployment is the
same deployment.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nova.launcher.files import write_file

DB_BACKENDS = ("mysql", "postgresql", "sqlite")
DEFAULT_SERVER_URLS = {
    "mysql": "mysql+pymysql://root@127.0.0.1:3306/",
    "postgresql": "postgresql+psycopg2://postgres@127.0.0.1:5432/postgres",
}
SERVICE_USERS = ("placement", "glance", "nova")
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,23}$")


@dataclass
class Ports:
    """TCP ports on loopback; the defaults are upstream's well-known ones."""

    keystone: int = 5000
    placement: int = 8778
    glance: int = 9292
    nova_api: int = 8774
    nova_metadata: int = 8775
    nova_novncproxy: int = 6080
    nova_serialproxy: int = 6083
    # Horizon (upstream's DevStack serves it on port 80 under Apache).
    horizon: int = 8080

    def offset(self, delta: int) -> Ports:
        """Every port shifted by ``delta`` (for a second deployment)."""
        return Ports(**{k: v + delta for k, v in dataclasses.asdict(self).items()})


def _random_passwords() -> dict[str, str]:
    return {user: secrets.token_urlsafe(18) for user in SERVICE_USERS}


@dataclass
class DeploymentSettings:
    """Settings of one deployment.

    ``name`` prefixes everything shared with other deployments on the same
    database server and broker (database names, vhosts, cloud names), so it
    must differ between deployments that run side by side. ``db`` selects
    where every database lives: a server (``mysql``, ``postgresql``; reached
    through ``db_url``, an administrative URL allowed to create databases)
    or SQLite files in the state directory. ``nova_options`` (``{section:
    {option: value}}``) are written into every ``nova.conf`` file of ours
    over the launcher's own values, e.g. short heartbeats for tests.

    ``all_in_one`` runs our services as threads of the launcher itself
    (:mod:`nova.launcher.in_process`) with one ``nova-aio.conf``, instead of
    one process per daemon. ``transport_url`` names the one message queue
    the API level and cell1 share (e.g. ``fake://`` in memory); when None,
    the API level and cell1 get a RabbitMQ vhost each on ``rabbit_url``.
    ``compute_driver`` is upstream's name of the computes' virt driver.
    ``dashboard`` adds Horizon (:mod:`nova.launcher.horizon`).
    """

    name: str = "local"
    db: str = "mysql"
    db_url: str | None = None
    computes: int = 1
    ports: Ports = field(default_factory=Ports)
    region: str = "RegionOne"
    admin_password: str = "secret"
    service_passwords: dict[str, str] = field(default_factory=_random_passwords)
    rabbit_url: str = "rabbit://guest:guest@127.0.0.1:5672/"
    nova_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    all_in_one: bool = False
    transport_url: str | None = None
    compute_driver: str = "fake.FakeDriver"
    dashboard: bool = False

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(
                f"deployment name {self.name!r}: use 1-24 characters a-z, 0-9, _ "
                "starting with a letter (it prefixes database names)"
            )
        if self.db not in DB_BACKENDS:
            raise ValueError(f"db must be one of {', '.join(DB_BACKENDS)}")
        if self.db != "sqlite" and not self.db_url:
            self.db_url = DEFAULT_SERVER_URLS[self.db]
        if self.computes < 0:
            raise ValueError("computes must be zero or more")
        for service, port in dataclasses.asdict(self.ports).items():
            if not 0 < port < 65536:
                raise ValueError(f"port {port} for {service} is out of range")
        for user in SERVICE_USERS:
            self.service_passwords.setdefault(user, secrets.token_urlsafe(18))

    @property
    def dashed_name(self) -> str:
        """The name as used in vhosts and cloud names (``_`` → ``-``)."""
        return self.name.replace("_", "-")

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DeploymentSettings:
        data = dict(data)
        data["ports"] = Ports(**data.get("ports", {}))
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def save(self, path: Path) -> None:
        write_file(path, self.to_json(), mode=0o600)

    @classmethod
    def load(cls, path: Path) -> DeploymentSettings | None:
        """The saved settings, or None if ``path`` does not exist."""
        try:
            return cls.from_dict(json.loads(path.read_text()))
        except FileNotFoundError:
            return None
