"""``nova-api`` the console script: gunicorn workers on the configured port."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, deadline: float) -> requests.Response:
    while True:
        try:
            # Workers import nova before they answer the first request.
            return requests.get(url, timeout=30)
        except (requests.ConnectionError, requests.Timeout):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_serves_the_api_and_stops_on_sigterm(cloud_databases, tmp_path):
    port = _free_port()
    conf = tmp_path / "nova.conf"
    conf.write_text(
        "[DEFAULT]\n"
        "osapi_compute_listen = 127.0.0.1\n"
        f"osapi_compute_listen_port = {port}\n"
        "osapi_compute_workers = 2\n"
        "[api]\nauth_strategy = noauth2\n"
        f"[api_database]\nconnection = {cloud_databases['urls']['api']}\n"
        f"[database]\nconnection = {cloud_databases['urls']['cell0']}\n"
    )
    script = Path(sys.executable).parent / "nova-api"
    process = subprocess.Popen(
        [
            str(script),
            "--config-file",
            str(conf),
            "--log-file",
            str(tmp_path / "api.log"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        version = _wait_for(f"{url}/v2.1", time.monotonic() + 60).json()["version"]
        assert version["version"] == "2.104"
        flavors = requests.get(f"{url}/v2.1/flavors", headers={"X-Auth-Token": "a:b"})
        assert flavors.json() == {"flavors": []}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        assert "authenticates NOBODY" in (tmp_path / "api.log").read_text()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
