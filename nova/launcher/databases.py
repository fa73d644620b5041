"""Creating (and dropping) the databases a deployment uses.

Two kinds: SQLite files in the state directory, or databases on a MariaDB /
MySQL or PostgreSQL server reached through an administrative URL. Names are
chosen by the caller (already prefixed per deployment); creation is
idempotent.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

import sqlalchemy as sa

from nova.launcher.errors import LauncherError

_IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


class Databases(Protocol):
    """Where a deployment's databases live."""

    backend: str

    def url(self, name: str) -> str:
        """The SQLAlchemy URL services use for database ``name``."""
        ...

    def ensure(self, name: str) -> str:
        """Create ``name`` unless it exists; return its URL."""
        ...

    def exists(self, name: str) -> bool: ...

    def drop(self, name: str) -> None:
        """Remove ``name`` and its data (idempotent)."""
        ...


def _check_name(name: str) -> str:
    if not _IDENTIFIER.match(name):
        raise ValueError(f"unsafe database name {name!r}")
    return name


class SqliteDatabases:
    """One SQLite file per database, created by its first connection."""

    backend = "sqlite"

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, name: str) -> Path:
        return self.directory / f"{_check_name(name)}.sqlite"

    def url(self, name: str) -> str:
        return f"sqlite:///{self.path(name)}"

    def ensure(self, name: str) -> str:
        self.directory.mkdir(parents=True, exist_ok=True)
        return self.url(name)

    def exists(self, name: str) -> bool:
        return self.path(name).exists()

    def drop(self, name: str) -> None:
        base = self.path(name)
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{base}{suffix}").unlink(missing_ok=True)


class ServerDatabases:
    """Databases on a MariaDB/MySQL or PostgreSQL server."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = sa.engine.make_url(admin_url)
        backend = self.admin_url.get_backend_name()
        if backend not in ("mysql", "postgresql"):
            raise ValueError(f"unsupported database server URL {admin_url!r}")
        self.backend = backend

    def _connect(self) -> sa.Connection:
        engine = sa.create_engine(
            self.admin_url,
            isolation_level="AUTOCOMMIT",
            poolclass=sa.pool.NullPool,
            connect_args={"connect_timeout": 10},
        )
        try:
            return engine.connect()
        except sa.exc.DBAPIError as exc:
            shown = self.admin_url.render_as_string(hide_password=True)
            first = str(exc.orig).splitlines()[0] if exc.orig else str(exc)
            raise LauncherError(
                f"cannot reach the {self.backend} server at {shown}: {first} "
                "(start it, pass another --db-url, or use --db sqlite)"
            ) from None

    def url(self, name: str) -> str:
        url = self.admin_url.set(database=_check_name(name))
        if self.backend == "mysql":
            url = url.update_query_dict({"charset": "utf8mb4"})
        return url.render_as_string(hide_password=False)

    def exists(self, name: str) -> bool:
        with self._connect() as conn:
            if self.backend == "mysql":
                query = (
                    "SELECT 1 FROM information_schema.schemata WHERE schema_name = :n"
                )
            else:
                query = "SELECT 1 FROM pg_database WHERE datname = :n"
            return conn.execute(sa.text(query), {"n": name}).first() is not None

    def ensure(self, name: str) -> str:
        _check_name(name)
        with self._connect() as conn:
            if self.backend == "mysql":
                create = f"CREATE DATABASE IF NOT EXISTS {name} CHARACTER SET utf8mb4"
                conn.execute(sa.text(create))
            else:
                found = conn.execute(
                    sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
                ).first()
                if found is None:
                    conn.execute(sa.text(f"CREATE DATABASE {name} ENCODING 'UTF8'"))
        return self.url(name)

    def drop(self, name: str) -> None:
        _check_name(name)
        with self._connect() as conn:
            if self.backend == "mysql":
                conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
            else:
                conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def databases_for(backend: str, server_url: str | None, sqlite_dir: Path) -> Databases:
    """The :class:`Databases` for a deployment's ``db`` setting."""
    if backend == "sqlite":
        return SqliteDatabases(sqlite_dir)
    if not server_url:
        raise ValueError(f"--db {backend} needs a server URL")
    return ServerDatabases(server_url)
