"""The installed ``nova-manage`` console script, run as a separate process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from nova.cmd import manage
from tests.functional.cmd.conftest import TRANSPORT_URL


@pytest.fixture(scope="module")
def nova_manage_script() -> str:
    script = shutil.which("nova-manage", path=os.path.dirname(sys.executable))
    if script is None:
        pytest.fail(f"nova-manage is not installed next to {sys.executable}")
    return script


def _run(script: str, conf, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [script, "--config-file", str(conf), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_console_script_lists_cells_with_masked_passwords(
    nova_manage_script, tmp_path, capsys
):
    conf = tmp_path / "nova.conf"
    conf.write_text(
        f"[api_database]\nconnection = sqlite:///{tmp_path / 'api.sqlite'}\n"
    )
    # Set up in-process (quicker); only the listing runs the script.
    for args in (
        ["api_db", "sync"],
        ["cell_v2", "create_cell", "--name", "cell1", "--transport-url",
         TRANSPORT_URL, "--database_connection", f"sqlite:///{tmp_path / 'c1.db'}"],
    ):  # fmt: skip
        assert manage.main(["nova-manage", "--config-file", str(conf), *args]) == 0

    listed = _run(nova_manage_script, conf, "cell_v2", "list_cells")

    assert listed.returncode == 0
    assert listed.stderr == ""
    assert "rabbit://nova:****@mq1:5672,nova:****@mq2:5672/cell1" in listed.stdout
    assert "mq-secret" not in listed.stdout


def test_console_script_reports_an_unreachable_database_in_one_line(
    nova_manage_script, tmp_path
):
    conf = tmp_path / "nova.conf"
    conf.write_text(
        "[api_database]\n"
        "connection = mysql+pymysql://nova:db-secret@127.0.0.1:1/nova_api\n"
    )
    result = _run(nova_manage_script, conf, "cell_v2", "list_cells")
    assert result.returncode == 255
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("ERROR: ")
    assert "Traceback" not in result.stderr and "db-secret" not in result.stderr
