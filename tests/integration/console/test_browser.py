"""A console in a real browser: ``openstack console url show --novnc``
against the Compute API, the URL opened in headless Chromium, Debian's
noVNC served by the ``nova-novncproxy`` process, its WebSocket proxied to
the VNC server the instance's compute names.

The compute is nova-compute's manager on the fake driver serving RPC over
real RabbitMQ; its guests' console is a tiny RFB server the test runs. The
API runs in the test process in noauth2 mode; the CLI reaches it with
admin_token auth on an explicit endpoint.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from nova.conf import CONF
from nova.launcher.ports import free_ports
from tests.fixtures.databases import skip_or_fail
from tests.functional.console.conftest import console_instance

pytestmark = [
    pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True),
    pytest.mark.rabbitmq,
]

NOVNC = Path("/usr/share/novnc")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CONNECT_TIMEOUT = 60


def _browser_missing() -> str | None:
    missing = [
        path
        for path in (NOVNC / "vnc_lite.html", Path(CHROMIUM), Path(CHROMEDRIVER))
        if not path.exists()
    ]
    if missing:
        return (
            f"{', '.join(map(str, missing))} missing "
            "(apt-get install novnc chromium chromium-driver)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    return None


@pytest.fixture
def novncproxy(nova_conf, compute, tmp_path):
    """The ``nova-novncproxy`` console script serving cell1 on a free port
    (it asks cell1's compute over cell1's queue where consoles are)."""
    (port,) = free_ports(1)
    conf = tmp_path / "nova-cell1.conf"
    conf.write_text(
        f"[DEFAULT]\nweb = {NOVNC}\ntransport_url = {CONF.transport_url}\n"
        f"[database]\nconnection = {nova_conf['urls']['cell1']}\n"
        f"[vnc]\nnovncproxy_host = 127.0.0.1\nnovncproxy_port = {port}\n"
    )
    log = tmp_path / "novncproxy.log"
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "nova-novncproxy"),
            "--config-file",
            str(conf),
            "--log-file",
            str(log),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    session = requests.Session()
    session.trust_env = False
    deadline = time.monotonic() + 60
    while True:
        try:
            if session.get(f"{url}/vnc_lite.html", timeout=5).status_code == 200:
                break
        except requests.ConnectionError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"nova-novncproxy did not start: {log.read_text()[-2000:]}")
        time.sleep(0.2)
    CONF.set_override("novncproxy_base_url", f"{url}/vnc_lite.html", group="vnc")
    yield url, log
    CONF.clear_override("novncproxy_base_url", group="vnc")
    os.killpg(process.pid, signal.SIGTERM)
    assert process.wait(timeout=30) == 0


def _console_url_show(api_url: str, server_id: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "openstack"),
            *("--os-auth-type", "admin_token", "--os-token", "demo:demo"),
            *("--os-endpoint", f"{api_url}/v2.1"),
            *("console", "url", "show", "--novnc", server_id, "-f", "json"),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=800,600",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def test_console_url_from_the_cli_connects_in_a_browser(
    api, nova_conf, flavor, compute, vnc_server, novncproxy
):
    reason = _browser_missing()
    if reason:
        skip_or_fail(reason)
    from selenium.webdriver.support.ui import WebDriverWait

    server_id = console_instance(nova_conf, compute, display_name="s1").uuid
    console = _console_url_show(api.base_url, server_id)
    proxy_url, log = novncproxy
    assert console["type"] == "novnc"
    assert console["url"].startswith(f"{proxy_url}/vnc_lite.html?path=%3Ftoken%3D")

    browser = _chromium()
    try:
        browser.set_page_load_timeout(CONNECT_TIMEOUT)
        browser.get(console["url"])

        def status(driver) -> str:
            return driver.execute_script(
                "return document.getElementById('status').textContent"
            )

        WebDriverWait(browser, CONNECT_TIMEOUT).until(
            lambda driver: status(driver).startswith("Connected"),
            message="noVNC did not connect",
        )
        assert status(browser) == "Connected to nova-test-console"
        size = browser.execute_script(
            "const c = document.querySelector('#screen canvas');"
            "return c ? [c.width, c.height] : null"
        )
        assert size == [64, 48]
    finally:
        browser.quit()
    assert vnc_server.connections == 1
    # The token travelled in the URL but never into the proxy's log.
    token = console["url"].rsplit("%3D", 1)[1]
    assert token not in log.read_text()
