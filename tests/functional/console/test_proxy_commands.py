"""The console proxy commands as an operator runs them: nova-serialproxy
listens on ``[serial_console] serialproxy_host:serialproxy_port`` serving
WebSockets only and stops cleanly on SIGTERM; nova-spicehtml5proxy refuses
to start without its web client."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _conf(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "nova.conf"
    path.write_text(f"[database]\nconnection = sqlite:///{tmp_path}/cell.db\n{text}")
    return path


def test_serialproxy_serves_websockets_only_until_sigterm(tmp_path):
    port = _free_port()
    conf = _conf(
        tmp_path,
        f"[serial_console]\nserialproxy_host = 127.0.0.1\nserialproxy_port = {port}\n",
    )
    process = subprocess.Popen(
        [BIN / "nova-serialproxy", "--config-file", conf],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                answer = requests.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except requests.ConnectionError:
                assert process.poll() is None, process.stdout.read()
                assert time.monotonic() < deadline, "nova-serialproxy never listened"
                time.sleep(0.2)
        assert answer.status_code == 200
        assert '<pre id="screen"' in answer.text
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_spicehtml5proxy_needs_its_web_client(tmp_path):
    missing = tmp_path / "no-spice-html5"
    conf = _conf(tmp_path, f"[DEFAULT]\nweb = {missing}\n")
    result = subprocess.run(
        [BIN / "nova-spicehtml5proxy", "--config-file", conf],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert f"nova-spicehtml5proxy: no web client at {missing}" in result.stderr
    assert not os.path.exists(missing)
