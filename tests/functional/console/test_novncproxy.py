"""nova-novncproxy's server: tokens, origins and the bytes of a console."""

from __future__ import annotations

import time
import urllib.parse
import uuid

import pytest
import requests
import sqlalchemy as sa

from nova import objects
from nova.conf import CONF
from nova.console import websocketproxy
from nova.db import engines
from nova.db.main import models
from tests.fixtures.vnc_server import BANNER
from tests.functional.console.conftest import WEB_PAGE, console_instance
from tests.functional.console.websocket_client import open_websocket


def _port(proxy) -> int:
    return proxy.server_address[1]


def _instance(cloud, compute=None):
    return console_instance(cloud, compute)


def _token(instance, vnc_server, ttl=600, console_type="novnc", port=None):
    token = objects.ConsoleAuthToken(
        instance._context,
        console_type=console_type,
        host=vnc_server.host,
        port=port or vnc_server.port,
        instance_uuid=instance.uuid,
        access_url_base="http://127.0.0.1:6080/vnc_auto.html",
    )
    return token, token.authorize(ttl)


@pytest.mark.rabbitmq
def test_fresh_token_reaches_the_rfb_banner(proxy, cell_conf, compute, vnc_server):
    instance = _instance(cell_conf, compute)
    _, token = _token(instance, vnc_server)
    port = _port(proxy)
    ws = open_websocket(
        "127.0.0.1", port, f"/?token={token}", origin=f"http://127.0.0.1:{port}"
    )
    try:
        assert ws.status == 101
        assert ws.read_binary(len(BANNER)) == BANNER
    finally:
        ws.close()
    # Tokens last their TTL: the browser may reconnect with the same one.
    again = open_websocket("127.0.0.1", port, f"/?token={token}")
    try:
        assert again.status == 101
        assert again.read_binary(len(BANNER)) == BANNER
    finally:
        again.close()


@pytest.mark.rabbitmq
def test_session_ends_when_its_token_expires(proxy, cell_conf, compute, vnc_server):
    instance = _instance(cell_conf, compute)
    _, token = _token(instance, vnc_server, ttl=3)
    CONF.set_override("enforce_session_timeout", True, group="consoleauth")
    try:
        ws = open_websocket("127.0.0.1", _port(proxy), f"/?token={token}")
        try:
            assert ws.read_binary(len(BANNER)) == BANNER
            started = time.monotonic()
            with pytest.raises(ConnectionError, match="closed"):
                ws.read_binary(1)
            assert time.monotonic() - started < 10
        finally:
            ws.close()
    finally:
        CONF.clear_override("enforce_session_timeout", group="consoleauth")


def test_token_is_stored_only_hashed(cell_conf, vnc_server):
    instance = _instance(cell_conf)
    stored, token = _token(instance, vnc_server)
    with engines.transaction(cell_conf["urls"]["cell1"]) as session:
        row = session.scalars(sa.select(models.ConsoleAuthToken)).one()
        assert row.token_hash != token and token not in row.token_hash
        assert len(row.token_hash) == 64
        assert row.expires == stored.expires
    assert stored.access_url == (
        "http://127.0.0.1:6080/vnc_auto.html?path=%3Ftoken%3D" + token
    )


@pytest.mark.rabbitmq
def test_refusals(proxy, cell_conf, compute, vnc_server):
    instance = _instance(cell_conf, compute)
    port = _port(proxy)
    own_origin = f"http://127.0.0.1:{port}"

    def status(token, origin=own_origin):
        ws = open_websocket("127.0.0.1", port, f"/?token={token}", origin=origin)
        ws.close()
        return ws.status

    # Forged.
    assert status(str(uuid.uuid4())) == 403
    assert open_websocket("127.0.0.1", port, "/").status == 403
    # Expired.
    _, expired = _token(instance, vnc_server, ttl=1)
    time.sleep(1.1)
    assert status(expired) == 403
    # A foreign page.
    _, valid = _token(instance, vnc_server)
    assert status(valid, origin="http://evil.example.com") == 403
    assert status(valid, origin=f"https://127.0.0.1:{port}") == 403
    CONF.set_override("allowed_origins", ["console.example.com"], group="console")
    try:
        assert status(valid, origin="http://console.example.com") == 101
    finally:
        CONF.clear_override("allowed_origins", group="console")
    # A token of another console type.
    _, spice = _token(instance, vnc_server, console_type="spice-html5")
    assert status(spice) == 403
    # Not where the compute host says the instance's console is.
    _, elsewhere = _token(instance, vnc_server, port=vnc_server.port + 1)
    assert status(elsewhere) == 403
    # The guest is gone from its hypervisor.
    other = _instance(cell_conf)
    _, ghost = _token(other, vnc_server)
    assert status(ghost) == 403
    # Reused after its instance was deleted.
    objects.ConsoleAuthToken.clean_console_auths_for_instance(
        instance._context, instance.uuid
    )
    assert status(valid) == 403
    _, orphan = _token(instance, vnc_server)
    instance.destroy()
    assert status(orphan) == 403
    # None of these reached the console but the allowed origin.
    assert vnc_server.connections == 1


def test_serves_the_web_client(proxy):
    url = f"http://127.0.0.1:{_port(proxy)}"
    session = requests.Session()
    session.trust_env = False
    response = session.get(f"{url}/vnc_auto.html", timeout=30)
    assert response.status_code == 200 and response.content == WEB_PAGE
    assert session.get(f"{url}/", timeout=30).status_code == 404
    assert session.get(f"{url}/../../etc/passwd", timeout=30).status_code == 404


def test_expired_tokens_are_cleaned(cell_conf, vnc_server):
    instance = _instance(cell_conf)
    _token(instance, vnc_server, ttl=0)
    _, live = _token(instance, vnc_server)
    context = instance._context
    assert objects.ConsoleAuthToken.clean_expired_console_auths(context) == 1
    assert (
        objects.ConsoleAuthToken.validate(context, live).instance_uuid == instance.uuid
    )


def test_redact_token():
    text = websocketproxy.redact_token("GET /?token=abc-123&x=1 path=%3Ftoken%3Dabc")
    assert "abc" not in text and "x=1" in text
    assert urllib.parse.unquote("%3D") == "="
