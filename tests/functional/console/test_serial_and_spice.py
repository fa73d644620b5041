"""Serial and SPICE consoles through the Compute API over real RabbitMQ:
the URL each microversion hands out, nova-serialproxy carrying bytes both
ways between a WebSocket and the guest's serial port (a TCP listener here)
for a token from the API and refusing any other, and what each console type
answers when it is off, of the wrong protocol or gone upstream."""

from __future__ import annotations

import threading
import time
import urllib.parse

import pytest
import requests

from nova import objects
from nova.conf import CONF
from nova.console import api as console_api
from nova.console import websocketproxy
from tests.functional.api.conftest import fault
from tests.functional.console.conftest import COMPUTE_HOST, console_instance
from tests.functional.console.serial_port import PROMPT, SerialPort
from tests.functional.console.websocket_client import open_websocket

ADMIN = "admin:admin"


def _server(cloud, compute=None, host=COMPUTE_HOST):
    return console_instance(cloud, compute, host=host, node=host, display_name="s1")


def _remote_console(api, instance, protocol, console_type, version="2.6"):
    return api.post(
        f"/v2.1/servers/{instance.uuid}/remote-consoles",
        {"remote_console": {"protocol": protocol, "type": console_type}},
        version=version,
    )


def _action(api, instance, body, version="2.1"):
    return api.post(f"/v2.1/servers/{instance.uuid}/action", body, version=version)


def _token_of(url: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["token"][0]


def _open_serial(proxy, token: str, origin: str | None = None):
    return open_websocket(
        "127.0.0.1", proxy.server_address[1], f"/?token={token}", origin=origin
    )


@pytest.mark.rabbitmq
def test_serial_console_url_reaches_the_guest_serial_port_both_ways(
    api, nova_conf, flavor, compute, consoles_enabled, serial_proxy
):
    serial_port = consoles_enabled
    instance = _server(nova_conf, compute)
    response = _remote_console(api, instance, "serial", "serial")
    assert response.status_code == 200, response.text
    console = response.json()["remote_console"]
    assert (console["protocol"], console["type"]) == ("serial", "serial")
    assert console["url"].startswith(CONF.serial_console.base_url + "?token=")
    token = _token_of(console["url"])

    # A browser's page is http(s) for a ws(s) URL: that origin is its own.
    port = serial_proxy.server_address[1]
    ws = _open_serial(serial_proxy, token, origin=f"http://127.0.0.1:{port}")
    try:
        assert ws.status == 101
        assert ws.read_until(PROMPT).endswith(PROMPT)
        ws.send_binary(b"uname -a\n")
        assert ws.read_until(b"\n") == b"echo: uname -a\n"
    finally:
        ws.close()
    assert serial_port.connections == 1

    shown = api.get(
        f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.31"
    )
    assert shown.status_code == 200, shown.text
    assert shown.json()["console"] == {
        "instance_uuid": instance.uuid,
        "host": serial_port.host,
        "port": serial_port.port,
        "internal_access_path": None,
    }
    # Before 2.31 only RDP tokens were shown.
    old = api.get(f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.30")
    assert old.status_code == 401

    # Revoked: the URL opens nothing any more.
    api.delete(f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN)
    assert _open_serial(serial_proxy, token).status == 403
    assert serial_port.connections == 1


@pytest.mark.rabbitmq
def test_serial_proxy_refuses_forged_expired_and_other_tokens(
    nova_conf, flavor, compute, consoles_enabled, serial_proxy
):
    serial_port = consoles_enabled
    instance = _server(nova_conf, compute)

    def token(console_type="serial", ttl=600):
        return objects.ConsoleAuthToken(
            instance._context,
            console_type=console_type,
            host=serial_port.host,
            port=serial_port.port,
            instance_uuid=instance.uuid,
            access_url_base=CONF.serial_console.base_url,
        ).authorize(ttl)

    good = token()
    assert _open_serial(serial_proxy, good).status == 101
    assert _open_serial(serial_proxy, good[:-4] + "abcd").status == 403
    assert _open_serial(serial_proxy, "forged").status == 403
    # A noVNC token does not open a serial console, nor a serial token a
    # page of another origin.
    assert _open_serial(serial_proxy, token("novnc")).status == 403
    assert _open_serial(serial_proxy, good, origin="http://evil.example").status == 403
    expiring = token(ttl=1)
    time.sleep(2)
    assert _open_serial(serial_proxy, expiring).status == 403
    # No token, no console; the root's page is the proxy's terminal, and
    # nothing else is served.
    port = serial_proxy.server_address[1]
    assert open_websocket("127.0.0.1", port, "/").status == 403
    page = requests.get(f"http://127.0.0.1:{port}/?token=x", timeout=10)
    assert page.status_code == 200 and 'id="screen"' in page.text
    assert requests.get(f"http://127.0.0.1:{port}/x.js", timeout=10).status_code == 404
    assert serial_port.connections == 1


@pytest.mark.rabbitmq
def test_spice_and_serial_urls_at_every_microversion(
    api, nova_conf, flavor, compute, consoles_enabled
):
    instance = _server(nova_conf, compute)
    response = _remote_console(api, instance, "spice", "spice-html5")
    assert response.status_code == 200, response.text
    console = response.json()["remote_console"]
    assert (console["protocol"], console["type"]) == ("spice", "spice-html5")
    assert console["url"].startswith(CONF.spice.html5proxy_base_url + "?token=")
    shown = api.get(
        f"/v2.1/os-console-auth-tokens/{_token_of(console['url'])}",
        token=ADMIN,
        version="2.31",
    ).json()["console"]
    assert (shown["host"], shown["port"]) == (
        CONF.spice.server_proxyclient_address,
        CONF.fake_driver.spice_port,
    )
    token = objects.ConsoleAuthToken.validate(
        instance._context, _token_of(console["url"])
    )
    assert token.console_type == "spice-html5"
    assert token.tls_port == CONF.fake_driver.spice_tls_port

    # 2.1-2.5: the server actions.
    for body, console_type, base in (
        (
            {"os-getSPICEConsole": {"type": "spice-html5"}},
            "spice-html5",
            CONF.spice.html5proxy_base_url,
        ),
        (
            {"os-getSerialConsole": {"type": "serial"}},
            "serial",
            CONF.serial_console.base_url,
        ),
    ):
        response = _action(api, instance, body, version="2.5")
        assert response.status_code == 200, response.text
        legacy = response.json()["console"]
        assert legacy["type"] == console_type
        assert legacy["url"].startswith(base + "?token=")
        # Replaced by /remote-consoles from 2.6.
        assert _action(api, instance, body, version="2.6").status_code == 404

    # Each type with the other protocol is invalid: 400.
    for protocol, console_type in (("serial", "spice-html5"), ("spice", "serial")):
        response = _remote_console(api, instance, protocol, console_type)
        assert fault(response)[:2] == ("badRequest", 400), response.text


@pytest.mark.rabbitmq
def test_spice_direct_from_2_99(api, nova_conf, flavor, compute, consoles_enabled):
    instance = _server(nova_conf, compute)
    # Not a console type before 2.99: the schema refuses it.
    response = _remote_console(api, instance, "spice", "spice-direct", "2.98")
    assert fault(response)[:2] == ("badRequest", 400), response.text
    response = _remote_console(api, instance, "serial", "spice-direct", "2.99")
    assert fault(response)[:2] == ("badRequest", 400), response.text

    response = _remote_console(api, instance, "spice", "spice-direct", "2.99")
    assert response.status_code == 200, response.text
    console = response.json()["remote_console"]
    assert (console["protocol"], console["type"]) == ("spice", "spice-direct")
    base = CONF.spice.spice_direct_proxy_base_url
    assert base == "http://127.0.0.1:13002/nova"
    assert console["url"].startswith(base + "?token=")
    token = _token_of(console["url"])

    # From 2.99 a SPICE proxy learns the TLS port of spice-direct tokens.
    shown = api.get(
        f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.99"
    )
    assert shown.status_code == 200, shown.text
    assert shown.json()["console"] == {
        "instance_uuid": instance.uuid,
        "host": CONF.spice.server_proxyclient_address,
        "port": CONF.fake_driver.spice_port,
        "tls_port": CONF.fake_driver.spice_tls_port,
        "internal_access_path": None,
    }
    older = api.get(
        f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.98"
    )
    assert "tls_port" not in older.json()["console"]
    # Not for the HTML5 console's tokens.
    html5 = _remote_console(api, instance, "spice", "spice-html5", "2.99")
    html5_token = _token_of(html5.json()["remote_console"]["url"])
    shown = api.get(
        f"/v2.1/os-console-auth-tokens/{html5_token}", token=ADMIN, version="2.99"
    )
    assert "tls_port" not in shown.json()["console"]
    # Users do not read tokens.
    denied = api.get(f"/v2.1/os-console-auth-tokens/{token}", version="2.99")
    assert denied.status_code == 403


def test_consoles_that_are_off_gone_or_not_ready(api, nova_conf, flavor):
    instance = _server(nova_conf)
    # [serial_console] and [spice] are off by default: 400, as upstream.
    for protocol, console_type in (
        ("serial", "serial"),
        ("spice", "spice-html5"),
        ("spice", "spice-direct"),
    ):
        response = _remote_console(api, instance, protocol, console_type, "2.99")
        assert fault(response)[:2] == ("badRequest", 400)
        assert f"Unavailable console type {console_type}" in fault(response)[2]
    for body in (
        {"os-getSerialConsole": {"type": "serial"}},
        {"os-getSPICEConsole": {"type": "spice-html5"}},
        {"os-getSerialConsole": {"type": "novnc"}},
        {"os-getSPICEConsole": {"type": "serial"}},
    ):
        assert fault(_action(api, instance, body))[:2] == ("badRequest", 400), body
    # RDP went with Hyper-V: its action is gone, its protocol unavailable.
    assert (
        _action(api, instance, {"os-getRDPConsole": {"type": "rdp-html5"}}).status_code
        == 410
    )
    assert _action(api, instance, {"os-getRDPConsole": {}}).status_code == 410
    response = _remote_console(api, instance, "rdp", "rdp-html5")
    assert fault(response)[:2] == ("badRequest", 400)
    # MKS (VMware) is no console of libvirt: 400 from 2.8, a schema error before.
    assert fault(_remote_console(api, instance, "mks", "webmks", "2.8"))[1] == 400
    assert fault(_remote_console(api, instance, "mks", "webmks", "2.6"))[1] == 400


def test_enabled_console_of_a_server_without_host_is_409(
    api, nova_conf, flavor, consoles_enabled
):
    unplaced = _server(nova_conf, host=None)
    for protocol, console_type in (("serial", "serial"), ("spice", "spice-html5")):
        response = _remote_console(api, unplaced, protocol, console_type)
        assert fault(response)[:2] == ("conflictingRequest", 409), response.text
    response = _action(api, unplaced, {"os-getSerialConsole": {"type": "serial"}})
    assert fault(response)[:2] == ("conflictingRequest", 409)


@pytest.mark.rabbitmq
def test_spice_proxy_admits_spice_tokens_only(
    api, nova_conf, flavor, compute, consoles_enabled, cell_conf, tmp_path
):
    # The guest's SPICE server: a listener greeting as SPICE does ("REDQ").
    spice_server = SerialPort(greeting=b"REDQ")
    CONF.set_override("server_proxyclient_address", spice_server.host, group="spice")
    CONF.set_override("spice_port", spice_server.port, group="fake_driver")
    web = tmp_path / "spice-html5"
    web.mkdir()
    (web / "spice_auto.html").write_text("spice-html5 stand-in")
    proxy = websocketproxy.NovaWebSocketProxy(
        "127.0.0.1", 0, str(web), console_api.SPICE_HTML5
    )
    thread = threading.Thread(target=proxy.serve_forever, daemon=True)
    thread.start()
    try:
        port = proxy.server_address[1]
        page = requests.get(f"http://127.0.0.1:{port}/spice_auto.html", timeout=10)
        assert page.text == "spice-html5 stand-in"
        instance = _server(nova_conf, compute)
        spice = _remote_console(api, instance, "spice", "spice-html5")
        token = _token_of(spice.json()["remote_console"]["url"])
        ws = open_websocket("127.0.0.1", port, f"/?token={token}")
        try:
            assert ws.status == 101
            assert ws.read_binary(4) == b"REDQ"
        finally:
            ws.close()
        # A serial console's token opens no SPICE console, and the other
        # way round.
        serial = _remote_console(api, instance, "serial", "serial")
        serial_token = _token_of(serial.json()["remote_console"]["url"])
        assert (
            open_websocket("127.0.0.1", port, f"/?token={serial_token}").status == 403
        )
        assert spice_server.connections == 1
    finally:
        proxy.shutdown()
        proxy.server_close()
        thread.join(timeout=10)
        spice_server.stop()
        CONF.clear_override("server_proxyclient_address", group="spice")
        CONF.clear_override("spice_port", group="fake_driver")
