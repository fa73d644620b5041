"""A real guest's serial console through nova-serialproxy: QEMU's serial
port is a TCP listener from ``[serial_console] port_range``, the URL comes
from ``openstack console url show --serial``, and a WebSocket on it
reaches the test image's shell on ttyS0: a line typed there is run and its
output comes back. A forged token opens nothing, and the guest keeps its
port across a hard reboot."""

from __future__ import annotations

import urllib.parse

import pytest

from nova.states import power_state
from tests.e2e.test_libvirt_guest_lifecycle import (  # noqa: F401  (fixtures)
    BOOT_MARKER,
    _unique,
    _wait_boots,
    _wait_status,
    flavor,
    image_set,
)
from tests.functional.console.websocket_client import open_websocket

pytestmark = [pytest.mark.e2e, pytest.mark.mysql, pytest.mark.rabbitmq]


def _serial_url(cloud, server_id: str) -> urllib.parse.SplitResult:
    shown = cloud.openstack(
        "console", "url", "show", "--serial", server_id,
        cloud=cloud.services.demo_cloud,
    )  # fmt: skip
    assert shown["type"] == "serial", shown
    return urllib.parse.urlsplit(shown["url"])


def _token(url: urllib.parse.SplitResult) -> str:
    return urllib.parse.parse_qs(url.query)["token"][0]


def _guest_port(cloud, url: urllib.parse.SplitResult) -> int:
    """The port of the guest's serial listener, as the token names it."""
    response = cloud.compute(microversion="2.31").get(
        f"/os-console-auth-tokens/{_token(url)}"
    )
    assert response.status_code == 200, response.text
    return response.json()["console"]["port"]


def _run_in_guest(url: urllib.parse.SplitResult, token: str, marker: str) -> bytes:
    ws = open_websocket(url.hostname, url.port, f"/?token={token}")
    try:
        assert ws.status == 101
        # The shell computes the marker: its echo of the typed line does not
        # contain it, only the command's output does.
        ws.send_binary(b"echo $((6*7))-" + marker.encode() + b"\r")
        return ws.read_until(f"42-{marker}".encode())
    finally:
        ws.close()


def test_serial_console_reaches_the_guest_shell(libvirt_cloud, image_set, flavor):  # noqa: F811
    cloud, compute = libvirt_cloud
    demo = cloud.services.demo_cloud
    created = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image_set["disk"]["id"],
        "--no-network", _unique("serial"), cloud=demo,
    )  # fmt: skip
    server_id = created["id"]
    _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    # The boot output still reaches the console log.
    assert BOOT_MARKER in _wait_boots(cloud, server_id, 1)

    url = _serial_url(cloud, server_id)
    assert url.scheme == "ws"
    output = _run_in_guest(url, _token(url), "serial-ok")
    assert b"42-serial-ok" in output

    assert open_websocket(url.hostname, url.port, "/?token=forged").status == 403

    # The guest keeps its serial port across a hard reboot.
    port = _guest_port(cloud, url)
    cloud.openstack("server", "reboot", "--hard", "--wait", server_id, cloud=demo,
                    json_output=False)  # fmt: skip
    _wait_boots(cloud, server_id, 2)
    again = _serial_url(cloud, server_id)
    assert _guest_port(cloud, again) == port
    assert b"42-after-reboot" in _run_in_guest(again, _token(again), "after-reboot")

    cloud.openstack("server", "delete", "--wait", server_id, cloud=demo,
                    json_output=False)  # fmt: skip
