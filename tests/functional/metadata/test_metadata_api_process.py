"""``nova-metadata-api`` the console script: gunicorn workers on
``metadata_listen_port`` serving a signed request from the database."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from nova.launcher.ports import free_ports
from tests.functional.api.test_nova_api_process import _wait_for
from tests.functional.metadata.test_metadata_api import SECRET, _instance, _signed

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def test_serves_metadata_and_stops_on_sigterm(nova_conf, flavor, tmp_path):
    instance = _instance(nova_conf)
    (port,) = free_ports(1)
    conf = tmp_path / "nova.conf"
    conf.write_text(
        "[DEFAULT]\n"
        "metadata_listen = 127.0.0.1\n"
        f"metadata_listen_port = {port}\n"
        "metadata_workers = 2\n"
        f"[api_database]\nconnection = {nova_conf['urls']['api']}\n"
        f"[database]\nconnection = {nova_conf['urls']['cell0']}\n"
        "[neutron]\nservice_metadata_proxy = true\n"
        f"metadata_proxy_shared_secret = {SECRET}\n"
    )
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "nova-metadata-api"),
            "--config-file",
            str(conf),
            "--log-file",
            str(tmp_path / "metadata.log"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        assert "latest" in _wait_for(url, time.monotonic() + 60).text.splitlines()

        body = requests.get(
            f"{url}/openstack/latest/meta_data.json",
            headers=_signed(instance),
            timeout=30,
        ).json()
        assert body["uuid"] == instance.uuid
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
