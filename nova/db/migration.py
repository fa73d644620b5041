"""Schema migrations of the API database and of the cell databases.

Two alembic environments hold them: ``alembic/api`` for the API database and
``alembic/main`` for the schema every cell database (cell0, cell1, ...) uses.
Each database records its revision in its own ``alembic_version`` table, as
upstream does. Schemas only move forward: there are no downgrades.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from nova import exception, utils
from nova.db import engines

DATABASES = ("api", "main")


class DatabaseUnreachable(exception.NovaException):
    msg_fmt = "Cannot connect to the %(database)s database at %(url)s: %(reason)s"


def alembic_directory(database: str) -> Path:
    """The alembic environment of ``database`` ("api" or "main").

    A source checkout keeps it next to the ``nova`` package; an installed
    package has it under ``<prefix>/share/nova/alembic``.
    """
    if database not in DATABASES:
        raise ValueError(f"database must be one of {DATABASES}, not {database!r}")
    candidates = [
        Path(__file__).resolve().parents[2] / "alembic" / database,
        Path(sys.prefix) / "share" / "nova" / "alembic" / database,
    ]
    for candidate in candidates:
        if (candidate / "env.py").is_file():
            return candidate
    searched = " or ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"No alembic environment for {database} in {searched}")


def _config(database: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(alembic_directory(database)))
    return config


def head(database: str) -> str:
    """The newest revision of ``database``'s migrations."""
    revision = ScriptDirectory.from_config(_config(database)).get_current_head()
    assert revision is not None, "an alembic environment without revisions"
    return revision


def _connect(database: str, connection: str) -> sa.Connection:
    try:
        engine = engines.get_engine(connection)
    except sa.exc.ArgumentError as exc:
        raise exception.InvalidDatabaseConnection(
            url=utils.mask_url_password(connection), reason=str(exc)
        ) from exc
    try:
        return engine.connect()
    except sa.exc.DBAPIError as exc:
        # The driver's message can run over several lines and repeat the URL;
        # its first line says what went wrong.
        reason = str(exc.orig).strip().splitlines()[0] if str(exc.orig) else ""
        raise DatabaseUnreachable(
            database=database,
            url=utils.mask_url_password(connection),
            reason=reason or type(exc.orig).__name__,
        ) from exc


def db_sync(database: str, connection: str, version: str | None = None) -> None:
    """Upgrade ``database`` ("api" or "main") at ``connection`` to ``version``
    (default: the newest). Upgrading a database already there does nothing.

    Raises DatabaseUnreachable when the database cannot be connected to.
    """
    config = _config(database)
    with _connect(database, connection) as conn, conn.begin():
        config.attributes["connection"] = conn
        command.upgrade(config, version or "head")


def db_version(database: str, connection: str) -> str | None:
    """The revision ``database`` at ``connection`` is at; None before the
    first db_sync.

    Raises DatabaseUnreachable when the database cannot be connected to.
    """
    alembic_directory(database)  # rejects an unknown database name
    with _connect(database, connection) as conn:
        return MigrationContext.configure(conn).get_current_revision()


def run_environment(target_metadata: sa.MetaData) -> None:
    """Body of both alembic ``env.py`` files.

    The connection comes from ``config.attributes["connection"]`` (db_sync),
    else from ``-x url=...`` or ``sqlalchemy.url`` (the alembic command line,
    for example to autogenerate a revision). ``alembic ... --sql`` writes the
    SQL instead of running it.
    """
    from alembic import context  # a proxy, bound only while alembic runs env.py

    config = context.config
    options = {
        "literal_binds": context.is_offline_mode(),
        "target_metadata": target_metadata,
        "compare_type": True,
        # SQLite alters tables by copying them; batch mode does that.
        "render_as_batch": True,
    }
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_migrations(context, connection=connection, **options)
    elif context.is_offline_mode():
        _run_migrations(context, url=_command_line_url(context), **options)
    else:
        engine = sa.create_engine(
            _command_line_url(context), poolclass=sa.pool.NullPool
        )
        with engine.connect() as conn:
            _run_migrations(context, connection=conn, **options)


def _command_line_url(context) -> str:
    url = context.get_x_argument(as_dictionary=True).get(
        "url", context.config.get_main_option("sqlalchemy.url")
    )
    if not url:
        raise RuntimeError("Name the database with -x url=... or sqlalchemy.url")
    return url


def _run_migrations(context, **options) -> None:
    context.configure(**options)
    with context.begin_transaction():
        context.run_migrations()
