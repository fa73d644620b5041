"""engines.is_unreachable tells a database server that cannot be reached
(down, restarting, connection lost) from a statement it refused."""

import socket

import pymysql
import pytest
import sqlalchemy as sa

from nova.db import engines


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _operational(code: int, text: str = "x") -> sa.exc.OperationalError:
    return sa.exc.OperationalError(
        "SELECT 1", {}, pymysql.err.OperationalError(code, text)
    )


def test_a_server_that_is_not_listening_is_unreachable():
    url = f"mysql+pymysql://root@127.0.0.1:{_closed_port()}/nova"
    engine = sa.create_engine(url, connect_args={"connect_timeout": 2})
    try:
        with pytest.raises(sa.exc.DBAPIError) as caught:
            with engine.connect():
                pass
    finally:
        engine.dispose()
    assert engines.is_unreachable(caught.value)


@pytest.mark.parametrize("code", [2003, 2006, 2013, 1053])
def test_lost_and_refused_connections_are_unreachable(code):
    assert engines.is_unreachable(_operational(code))


@pytest.mark.parametrize(
    "error",
    [
        _operational(1205, "Lock wait timeout exceeded"),
        sa.exc.IntegrityError("INSERT", {}, pymysql.err.IntegrityError(1062, "dup")),
        ValueError("not a database error"),
    ],
)
def test_refused_statements_are_not_unreachable(error):
    assert not engines.is_unreachable(error)


def test_postgresql_says_it_in_words():
    class PgError(Exception):
        pass

    down = sa.exc.OperationalError(
        "SELECT 1", {}, PgError("connection to server failed: Connection refused")
    )
    assert engines.is_unreachable(down)
