"""A real guest's serial and SPICE consoles in headless Chromium.

The cloud has serial consoles and SPICE on, console tokens living
``TOKEN_TTL`` seconds, and a ``nova-spicehtml5proxy`` serving Debian's
spice-html5 beside the launcher's ``nova-serialproxy``. The URLs come from
``openstack console url show --serial`` / ``--spice``:

- the serial URL, with ``http`` for ``ws``, is the serial proxy's own
  terminal page: it connects, a line typed in the browser reaches the
  test image's shell (echoed back) and its output is shown;
- the SPICE URL opens spice-html5, which connects through the proxy to
  QEMU's SPICE server and draws the guest's display;
- a forged token, and a token past its TTL, are refused in both pages.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest
import requests

from nova.launcher.ports import free_ports
from nova.states import power_state
from tests.e2e.test_libvirt_guest_lifecycle import (  # noqa: F401  (fixtures)
    _unique,
    _wait_boots,
    _wait_status,
    flavor,
    image_set,
)
from tests.fixtures.browser import browser_missing, chromium
from tests.fixtures.databases import skip_or_fail

pytestmark = [pytest.mark.e2e, pytest.mark.mysql, pytest.mark.rabbitmq]

SPICE_HTML5 = Path("/usr/share/spice-html5")
# Long enough to open a fresh URL under load, short enough to wait out.
TOKEN_TTL = 30
WAIT = 90
ENTER = "\ue007"  # WebDriver's Enter key


@pytest.fixture(scope="module")
def spice_port() -> int:
    (port,) = free_ports(1)
    return port


@pytest.fixture(scope="module")
def libvirt_cloud_options(spice_port):
    return {
        "consoleauth": {"token_ttl": TOKEN_TTL},
        "spice": {
            "enabled": True,
            "html5proxy_host": "127.0.0.1",
            "html5proxy_port": spice_port,
            "html5proxy_base_url": f"http://127.0.0.1:{spice_port}/spice_auto.html",
        },
    }


@pytest.fixture(scope="module")
def browser_ready():
    reason = browser_missing(SPICE_HTML5 / "spice_auto.html")
    if reason:
        skip_or_fail(reason)


@pytest.fixture(scope="module")
def spicehtml5proxy(libvirt_cloud, spice_port, tmp_path_factory):
    """nova-spicehtml5proxy for the cloud's cell, from its cell config."""
    cloud, _ = libvirt_cloud
    log = tmp_path_factory.mktemp("spice") / "nova-spicehtml5proxy.log"
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "nova-spicehtml5proxy"),
            "--config-file", str(cloud.deployment.nova.configs.cell1_conf),
            "--log-file", str(log),
        ],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    session = requests.Session()
    session.trust_env = False
    deadline = time.monotonic() + WAIT
    page = f"http://127.0.0.1:{spice_port}/spice_auto.html"
    while True:
        with contextlib.suppress(requests.ConnectionError):
            if session.get(page, timeout=5).status_code == 200:
                break
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(
                f"nova-spicehtml5proxy did not start: {log.read_text()[-2000:]}"
            )
        time.sleep(0.3)
    yield log
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def server(libvirt_cloud, image_set, flavor):  # noqa: F811
    cloud, _ = libvirt_cloud
    demo = cloud.services.demo_cloud
    created = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image_set["disk"]["id"],
        "--no-network", _unique("browser"), cloud=demo,
    )  # fmt: skip
    server_id = created["id"]
    _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    _wait_boots(cloud, server_id, 1)
    yield server_id
    cloud.openstack("server", "delete", "--wait", server_id, cloud=demo,
                    json_output=False)  # fmt: skip


@pytest.fixture
def browser(browser_ready):
    session = chromium()
    session.set_page_load_timeout(WAIT)
    yield session
    session.quit()


def _console_url(cloud, server_id: str, kind: str) -> str:
    shown = cloud.openstack(
        "console", "url", "show", f"--{kind}", server_id,
        cloud=cloud.services.demo_cloud,
    )  # fmt: skip
    return shown["url"]


def _with_token(url: str, token: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return parts._replace(query=urllib.parse.urlencode({"token": token})).geturl()


def _serial_page(url: str) -> str:
    """The serial console URL as a browser opens it: http(s) for ws(s)."""
    parts = urllib.parse.urlsplit(url)
    return parts._replace(scheme={"ws": "http", "wss": "https"}[parts.scheme]).geturl()


def _text(browser, element_id: str) -> str:
    return browser.execute_script(
        f"const e = document.getElementById('{element_id}');"
        "return e ? e.textContent : ''"
    )


def _wait_text(browser, element_id: str, predicate, what: str) -> str:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT).until(
        lambda driver: predicate(_text(driver, element_id)), message=what
    )
    return _text(browser, element_id)


def _type(browser, text: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(text).perform()


def test_serial_console_in_a_browser(libvirt_cloud, server, browser):
    cloud, _ = libvirt_cloud
    url = _console_url(cloud, server, "serial")
    assert url.startswith("ws://")
    browser.get(_serial_page(url))
    _wait_text(browser, "status", lambda s: s == "Connected", "serial page connects")

    # Enter makes the guest's shell print its prompt; a typed line is echoed
    # by the guest's terminal, then run (only its output has "42-").
    _type(browser, ENTER)
    _wait_text(browser, "screen", lambda s: "# " in s, "the guest's prompt")
    _type(browser, "echo $((6*7))-from-chromium" + ENTER)
    screen = _wait_text(
        browser, "screen", lambda s: "42-from-chromium" in s, "the command's output"
    )
    assert "echo $((6*7))-from-chromium" in screen

    # A forged token, then this one once its TTL passed.
    browser.get(_serial_page(_with_token(url, "forged-token")))
    refused = _wait_text(
        browser, "status", lambda s: s.startswith("Refused"), "forged token refused"
    )
    assert "Connected" not in refused
    time.sleep(TOKEN_TTL + 1)
    browser.get(_serial_page(url))
    _wait_text(
        browser, "status", lambda s: s.startswith("Refused"), "expired token refused"
    )


def test_spice_console_in_a_browser(
    libvirt_cloud, server, spice_port, spicehtml5proxy, browser
):
    cloud, _ = libvirt_cloud
    url = _console_url(cloud, server, "spice")
    assert url.startswith(f"http://127.0.0.1:{spice_port}/spice_auto.html?token=")
    browser.get(url)
    messages = _wait_text(
        browser, "message-div", lambda s: "Connected to ws://" in s, "SPICE connects"
    )
    assert "Can't connect" not in messages

    def drawn(driver):
        return driver.execute_script(
            "const c = document.querySelector('#spice-screen canvas');"
            "return c && c.width > 0 && c.height > 0 ? [c.width, c.height] : null"
        )

    from selenium.webdriver.support.ui import WebDriverWait

    width, height = WebDriverWait(browser, WAIT).until(
        drawn, message="spice-html5 draws no display"
    )
    assert width >= 640 and height >= 400
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["token"][0]
    assert token not in spicehtml5proxy.read_text()

    # A forged token, then this one once its TTL passed: spice-html5 says it
    # cannot connect, and nothing is drawn.
    for refused_url in (_with_token(url, "forged-token"), url):
        if refused_url == url:
            time.sleep(TOKEN_TTL + 1)
        browser.get(refused_url)
        _wait_text(
            browser,
            "message-div",
            lambda s: "Can't connect to websocket" in s,
            f"{refused_url} refused",
        )
        # The proxy may take the WebSocket upgrade before it checks the
        # token and closes it, so spice-html5 can say "Connected" first;
        # what counts is that the display is never drawn.
        assert drawn(browser) is None
