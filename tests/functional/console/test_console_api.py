"""Console URLs through the Compute API: nova-api asks the instance's
nova-compute over real RabbitMQ where the console is, stores a token in the
cell, and the console proxy of the cell admits that token to the VNC server
the compute named. Also /os-console-auth-tokens and /os-server-password."""

from __future__ import annotations

import urllib.parse
import uuid

import pytest

from nova.conf import CONF
from nova.metadata import password
from tests.fixtures.vnc_server import BANNER
from tests.functional.console.conftest import COMPUTE_HOST, console_instance
from tests.functional.console.websocket_client import open_websocket

ADMIN = "admin:admin"


def _server(cloud, compute=None, host=COMPUTE_HOST, project="demo"):
    return console_instance(
        cloud, compute, host=host, node=host, project=project, display_name="s1"
    )


def _console_body(protocol="vnc", console_type="novnc"):
    return {"remote_console": {"protocol": protocol, "type": console_type}}


def _token_of(url: str) -> str:
    path = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["path"][0]
    return urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)["token"][0]


@pytest.mark.rabbitmq
def test_console_url_opens_the_console_through_the_proxy(
    api, nova_conf, flavor, compute, proxy, vnc_server
):
    instance = _server(nova_conf, compute)
    response = api.post(
        f"/v2.1/servers/{instance.uuid}/remote-consoles", _console_body(), version="2.6"
    )
    assert response.status_code == 200, response.text
    console = response.json()["remote_console"]
    assert console["protocol"] == "vnc" and console["type"] == "novnc"
    url = console["url"]
    assert url.startswith(CONF.vnc.novncproxy_base_url + "?path=%3Ftoken%3D")
    token = _token_of(url)

    port = proxy.server_address[1]
    ws = open_websocket("127.0.0.1", port, f"/?token={token}")
    try:
        assert ws.status == 101
        assert ws.read_binary(len(BANNER)) == BANNER
    finally:
        ws.close()

    # The operator's view of the token, then its revocation.
    shown = api.get(
        f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.31"
    )
    assert shown.status_code == 200, shown.text
    assert shown.json()["console"] == {
        "instance_uuid": instance.uuid,
        "host": vnc_server.host,
        "port": vnc_server.port,
        "internal_access_path": None,
    }
    old = api.get(f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.30")
    assert old.status_code == 401
    assert api.get(f"/v2.1/os-console-auth-tokens/{token}").status_code == 403
    assert (
        api.delete(f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN).status_code
        == 204
    )
    assert (
        api.get(f"/v2.1/os-console-auth-tokens/{token}", token=ADMIN, version="2.31")
    ).status_code == 404
    assert open_websocket("127.0.0.1", port, f"/?token={token}").status == 403


@pytest.mark.rabbitmq
def test_deleting_the_server_on_its_host_revokes_its_tokens(
    api, nova_conf, flavor, compute, proxy
):
    instance = _server(nova_conf, compute)
    url = api.post(
        f"/v2.1/servers/{instance.uuid}/remote-consoles", _console_body(), version="2.6"
    ).json()["remote_console"]["url"]
    cctxt = instance._context
    compute.terminate_instance(cctxt, instance)
    token = _token_of(url)
    assert (
        open_websocket("127.0.0.1", proxy.server_address[1], f"/?token={token}").status
        == 403
    )


def test_remote_console_errors(api, nova_conf, flavor):
    instance = _server(nova_conf)
    path = f"/v2.1/servers/{instance.uuid}/remote-consoles"
    # Before 2.6 the resource does not exist.
    assert api.post(path, _console_body(), version="2.5").status_code == 404
    assert (
        api.post(
            path, {"remote_console": {"protocol": "vnc"}}, version="2.6"
        ).status_code
        == 400
    )
    assert (
        api.post(path, _console_body("vnc", "spice-html5"), version="2.6").status_code
        == 400
    )
    assert (
        api.post(path, _console_body("spice", "spice-html5"), version="2.6").status_code
        == 400
    )
    assert (
        api.post(path, _console_body("mks", "webmks"), version="2.6").status_code == 400
    )
    assert (
        api.post(path, _console_body("mks", "webmks"), version="2.8").status_code == 400
    )
    missing = f"/v2.1/servers/{uuid.uuid4()}/remote-consoles"
    assert api.post(missing, _console_body(), version="2.6").status_code == 404
    # Another project's server does not exist for the caller.
    other = _server(nova_conf, project="other")
    other_path = f"/v2.1/servers/{other.uuid}/remote-consoles"
    assert api.post(other_path, _console_body(), version="2.6").status_code == 404
    # Not on a host yet.
    unplaced = _server(nova_conf, host=None)
    unplaced_path = f"/v2.1/servers/{unplaced.uuid}/remote-consoles"
    response = api.post(unplaced_path, _console_body(), version="2.6")
    assert response.status_code == 409
    assert "conflictingRequest" in response.json()
    assert (
        api.get(f"/v2.1/os-console-auth-tokens/{uuid.uuid4()}", token=ADMIN).status_code
        == 404
    )


def test_server_password(api, nova_conf, flavor):
    instance = _server(nova_conf)
    path = f"/v2.1/servers/{instance.uuid}/os-server-password"
    assert api.get(path).json() == {"password": ""}
    secret = "x" * 300  # longer than one system metadata value
    password.set_password(instance, secret)
    assert api.get(path).json() == {"password": secret}
    assert api.get(path, token="other:other").status_code == 404
    assert api.delete(path).status_code == 204
    assert api.get(path).json() == {"password": ""}
