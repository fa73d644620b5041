"""The all-in-one's console proxies: started as threads when the
configuration asks for them and their web client is installed, left out
with a line saying why otherwise."""

import io

import pytest
import requests

from nova import objects
from nova.cmd import spicehtml5proxy
from nova.conf import CONF
from nova.launcher.in_process import InProcessNova
from nova.launcher.progress import Progress

objects.register_all()


def _overrides(tmp_path, novnc_web):
    return [
        ("web", str(novnc_web), None),
        ("novncproxy_host", "127.0.0.1", "vnc"),
        ("novncproxy_port", 0, "vnc"),
        ("enabled", True, "serial_console"),
        ("serialproxy_host", "127.0.0.1", "serial_console"),
        ("serialproxy_port", 0, "serial_console"),
        ("enabled", True, "spice"),
    ]


@pytest.fixture(autouse=True)
def _without_spice_html5(monkeypatch, tmp_path):
    # Whether or not this host has spice-html5, these tests lack it.
    monkeypatch.setattr(spicehtml5proxy, "WEB", str(tmp_path / "no-spice-html5"))


def _proxies(tmp_path, novnc_web):
    overrides = _overrides(tmp_path, novnc_web)
    for name, value, group in overrides:
        CONF.set_override(name, value, group=group)
    out = io.StringIO()
    try:
        nova = InProcessNova(
            tmp_path / "nova.conf", tmp_path / "nova.log", Progress(out)
        )
        return nova._console_proxies(), out.getvalue()
    finally:
        for name, _, group in overrides:
            CONF.clear_override(name, group=group)


def test_missing_web_clients_are_said_and_the_serial_proxy_runs(tmp_path):
    proxies, said = _proxies(tmp_path, tmp_path / "no-novnc")
    try:
        assert [proxy.name for proxy in proxies] == ["nova-serialproxy"]
        missing = tmp_path / "no-novnc"
        assert f"no nova-novncproxy: its web client is not installed at {missing}" in (
            said
        )
        assert "no nova-spicehtml5proxy" in said
        serial = proxies[0]
        serial.start()
        # Its root is its terminal page; a WebSocket without a token is 403.
        assert requests.get(serial.url, timeout=10).status_code == 200
        upgrade = requests.get(
            serial.url,
            headers={
                "Upgrade": "websocket",
                "Connection": "Upgrade",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version": "13",
            },
            timeout=10,
        )
        assert upgrade.status_code == 403
    finally:
        for proxy in proxies:
            proxy.stop()


def test_novnc_proxy_serves_its_web_client_when_installed(tmp_path):
    web = tmp_path / "novnc"
    web.mkdir()
    (web / "vnc_auto.html").write_text("noVNC")
    proxies, _ = _proxies(tmp_path, web)
    try:
        assert [proxy.name for proxy in proxies] == [
            "nova-novncproxy",
            "nova-serialproxy",
        ]
        novnc = proxies[0]
        novnc.start()
        assert requests.get(novnc.url + "vnc_auto.html", timeout=10).text == "noVNC"
    finally:
        for proxy in proxies:
            proxy.stop()
