"""Engines and transactions for the API database and every cell database.

A deployment talks to many databases (the API DB, cell0, cell1, ...), each
named by its connection URL, so engines are cached per URL rather than held in
a single global. Every connection gets a connect timeout: threads cannot be
cancelled, so nothing may wait forever on an unreachable server.

Server databases get the pool settings of oslo.db's options: those of
``[api_database]`` for the API database's URL, those of ``[database]`` for
every other (cell databases, as upstream applies them). SQLite files have no
server to pool connections to, so none of them apply there.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event, orm

import nova.conf

CONF = nova.conf.CONF

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


def _mysql_on_connect(sql_mode: str, dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("SET SESSION sql_mode = %s", (sql_mode,))
    cursor.close()


def _options_for(connection: str) -> Any:
    """The oslo.db option group configuring ``connection``."""
    if connection == CONF.api_database.connection:
        return CONF.api_database
    return CONF.database


def _pool_arguments(options: Any) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "pool_recycle": options.connection_recycle_time,
        "echo": options.connection_debug >= 100,
    }
    if options.max_pool_size is not None:
        # 0 means "no limit" to both oslo.db and SQLAlchemy.
        arguments["pool_size"] = options.max_pool_size
    if options.max_overflow is not None:
        arguments["max_overflow"] = options.max_overflow
    if options.pool_timeout is not None:
        arguments["pool_timeout"] = options.pool_timeout
    return arguments


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
    options = _options_for(connection)
    engine = sa.create_engine(
        url,
        pool_pre_ping=True,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
        **_pool_arguments(options),
    )
    # TRADITIONAL (oslo.db's default) turns silent truncation into errors.
    if backend == "mysql" and options.mysql_sql_mode:
        event.listen(
            engine,
            "connect",
            functools.partial(_mysql_on_connect, options.mysql_sql_mode),
        )
    return engine


# MySQL/MariaDB client errors that mean "no server to talk to": cannot
# connect (2002, 2003), gone or lost mid-query (2006, 2013, 2055), shutting
# down (1053), connection killed (1927).
_MYSQL_UNREACHABLE = frozenset({1053, 1927, 2002, 2003, 2006, 2013, 2055})


def is_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database server could not be reached (down,
    restarting, connection lost), as opposed to a refused statement."""
    if not isinstance(exc, sa.exc.DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if not isinstance(exc, sa.exc.OperationalError):
        return False
    args = getattr(exc.orig, "args", ())
    if args and isinstance(args[0], int):
        return args[0] in _MYSQL_UNREACHABLE
    # psycopg2 says it in words only.
    text = str(exc.orig).lower()
    return any(
        words in text
        for words in ("could not connect", "connection refused", "server closed")
    )


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
