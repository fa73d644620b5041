"""The edges of the real ``nova-api`` and ``nova-metadata-api`` daemons
(gunicorn, threaded workers), as a hostile or careless client meets them:
a 20 MB body declared up front, an undecodable path, /healthcheck without
a token, request ids, a caller's global request id in the daemon's log,
and 50 clients connecting at once."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests

from nova.launcher.ports import free_ports
from tests.functional.api.test_nova_api_process import _wait_for

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

TOKEN = "demo:demo"


def _start(script: str, conf: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / script),
            "--config-file",
            str(conf),
            "--log-file",
            str(log),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def daemons(cloud_databases, tmp_path_factory):
    """nova-api and nova-metadata-api on free ports, for the whole module:
    {name: (url, log)}."""
    tmp_path = tmp_path_factory.mktemp("edges")
    api_port, metadata_port = free_ports(2)
    conf = tmp_path / "nova.conf"
    conf.write_text(
        "[DEFAULT]\n"
        "debug = true\n"
        "osapi_compute_listen = 127.0.0.1\n"
        f"osapi_compute_listen_port = {api_port}\n"
        "osapi_compute_workers = 1\n"
        "metadata_listen = 127.0.0.1\n"
        f"metadata_listen_port = {metadata_port}\n"
        "metadata_workers = 1\n"
        "[api]\nauth_strategy = noauth2\n"
        f"[api_database]\nconnection = {cloud_databases['urls']['api']}\n"
        f"[database]\nconnection = {cloud_databases['urls']['cell0']}\n"
    )
    found = {
        "nova-api": (f"http://127.0.0.1:{api_port}", tmp_path / "api.log"),
        "nova-metadata-api": (
            f"http://127.0.0.1:{metadata_port}",
            tmp_path / "metadata.log",
        ),
    }
    processes = [_start(name, conf, log) for name, (_, log) in found.items()]
    try:
        deadline = time.monotonic() + 90
        for url, _ in found.values():
            _wait_for(f"{url}/healthcheck", deadline)
        yield found
    finally:
        for process in processes:
            _stop(process)


def _declare_huge_body(url: str, path: str, size: int) -> tuple[int, bytes]:
    """Send the headers of a ``size``-byte body and 64 KiB of it, then read
    the answer (the connection stays open: the rest never comes)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            (
                f"POST {path} HTTP/1.1\r\nHost: {host}\r\n"
                f"X-Auth-Token: {TOKEN}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {size}\r\n\r\n"
            ).encode()
            + b'{"server": {"name": "'
            + b"x" * 65536
        )
        response = b""
        while b"\r\n\r\n" not in response:
            response += sock.recv(65536)
        head, _, body = response.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(body) < length:
            body += sock.recv(65536)
    return int(head.split(b" ")[1]), body


@pytest.mark.parametrize("name", ["nova-api", "nova-metadata-api"])
def test_a_20_mb_body_is_a_small_413_and_a_short_log_line(daemons, name):
    url, log = daemons[name]
    path = "/v2.1/servers" if name == "nova-api" else "/openstack/latest/password"
    status, body = _declare_huge_body(url, path, 20 * 1024 * 1024)
    assert status == 413
    assert len(body) < 1000
    if name == "nova-api":
        assert b'"overLimit"' in body
    assert max(len(line) for line in log.read_text().splitlines()) < 2000


def test_a_chunked_body_over_the_limit_is_a_413(daemons):
    url, _ = daemons["nova-api"]
    name = b"k" * (120 * 1024)

    def chunks():  # no Content-Length: requests sends it chunked
        yield b'{"keypair": {"name": "'
        yield name
        yield b'"}}'

    response = requests.post(
        f"{url}/v2.1/os-keypairs",
        data=chunks(),
        headers={"X-Auth-Token": TOKEN, "Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 413
    assert response.json()["overLimit"]["code"] == 413


@pytest.mark.parametrize("name", ["nova-api", "nova-metadata-api"])
def test_edges_answered_without_a_token(daemons, name):
    url, _ = daemons[name]
    health = requests.get(f"{url}/healthcheck", timeout=30)
    assert health.status_code == 200
    assert health.headers["x-openstack-request-id"].startswith("req-")
    undecodable = requests.get(f"{url}/%ff", timeout=30)
    assert undecodable.status_code == 404
    assert undecodable.headers["x-openstack-request-id"].startswith("req-")


def test_a_huge_microversion_is_a_400(daemons):
    url, _ = daemons["nova-api"]
    response = requests.get(
        f"{url}/v2.1/flavors",
        headers={
            "X-Auth-Token": TOKEN,
            "OpenStack-API-Version": "compute 2." + "9" * 5000,
        },
        timeout=30,
    )
    assert response.status_code == 400
    assert "is of invalid format" in response.json()["badRequest"]["message"]


def _missing_flavor(url: str, caller_request_id: str) -> requests.Response:
    response = requests.get(
        f"{url}/v2.1/flavors/no-such-flavor",
        headers={"X-Auth-Token": TOKEN, "X-OpenStack-Request-ID": caller_request_id},
        timeout=30,
    )
    assert response.status_code == 404
    return response


def test_a_callers_global_request_id_reaches_the_log(daemons):
    url, log = daemons["nova-api"]
    global_id = f"req-{uuid.uuid4()}"
    response = _missing_flavor(url, global_id)
    request_id = response.headers["x-openstack-request-id"]
    assert response.headers["x-compute-request-id"] == request_id
    assert request_id != global_id
    lines = [line for line in log.read_text().splitlines() if request_id in line]
    assert lines and all(global_id in line for line in lines), lines


def test_a_malformed_global_request_id_is_dropped(daemons):
    url, log = daemons["nova-api"]
    bogus = f"not-a-request-id-{uuid.uuid4()}"
    _missing_flavor(url, bogus)
    assert bogus not in log.read_text()


@pytest.mark.parametrize("name", ["nova-api", "nova-metadata-api"])
def test_fifty_clients_connecting_at_once_are_all_served(daemons, name):
    url, _ = daemons[name]
    clients = 50

    def fetch(_: int) -> int:
        with requests.Session() as session:
            session.trust_env = False
            return session.get(f"{url}/healthcheck", timeout=60).status_code

    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        statuses = list(pool.map(fetch, range(clients)))
    assert statuses == [200] * clients
