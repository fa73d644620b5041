"""Engines and transactions for the API database and every cell database.

A deployment talks to many databases (the API DB, cell0, cell1, ...), each
named by its connection URL, so engines are cached per URL rather than held in
a single global. Every connection gets a connect timeout: threads cannot be
cancelled, so nothing may wait forever on an unreachable server.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import sqlalchemy as sa
from sqlalchemy import event, orm

CONNECT_TIMEOUT_SECONDS = 10

_engines: dict[str, sa.Engine] = {}
_lock = threading.Lock()


def _sqlite_on_connect(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers proceed while one writer commits; the all-in-one runs
    # several services against the same files.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    # With WAL, NORMAL still never corrupts the database; it only lets the
    # last commits be lost on power failure, and makes commits much cheaper.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _mysql_on_connect(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # TRADITIONAL turns silent truncation into errors, as upstream enforces.
    cursor.execute("SET SESSION sql_mode = 'TRADITIONAL'")
    cursor.close()


def _create_engine(connection: str) -> sa.Engine:
    url = sa.engine.make_url(connection)
    backend = url.get_backend_name()
    if backend == "sqlite":
        engine = sa.create_engine(
            url,
            connect_args={"timeout": 30, "check_same_thread": False},
        )
        if url.database not in (None, "", ":memory:"):
            event.listen(engine, "connect", _sqlite_on_connect)
        return engine
    engine = sa.create_engine(
        url,
        pool_pre_ping=True,
        pool_recycle=3600,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
    )
    if backend == "mysql":
        event.listen(engine, "connect", _mysql_on_connect)
    return engine


def get_engine(connection: str) -> sa.Engine:
    """Return the (cached) engine for a database connection URL."""
    with _lock:
        engine = _engines.get(connection)
        if engine is None:
            engine = _engines[connection] = _create_engine(connection)
        return engine


@contextlib.contextmanager
def transaction(connection: str) -> Iterator[orm.Session]:
    """A session inside one transaction: committed on success, rolled back
    on any exception."""
    with orm.Session(get_engine(connection), expire_on_commit=False) as session:
        with session.begin():
            yield session


def dispose(connection: str | None = None) -> None:
    """Close pooled connections of one database, or of all when None."""
    with _lock:
        urls = [connection] if connection is not None else list(_engines)
        for url in urls:
            engine = _engines.pop(url, None)
            if engine is not None:
                engine.dispose()
