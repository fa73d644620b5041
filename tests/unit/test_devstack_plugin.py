"""The DevStack plugin is shellcheck-clean and follows the plugin contract."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.databases import skip_or_fail

DEVSTACK = Path(__file__).resolve().parents[2] / "devstack"
FILES = (DEVSTACK / "plugin.sh", DEVSTACK / "settings")
CONSOLE_SCRIPTS = ("nova-api", "nova-scheduler", "nova-conductor", "nova-compute")


@pytest.fixture(scope="module")
def shellcheck() -> str:
    path = shutil.which("shellcheck")
    if path is None:
        skip_or_fail("shellcheck is not installed (apt-get install shellcheck)")
    return path


def test_shellcheck_finds_nothing(shellcheck):
    result = subprocess.run(
        [shellcheck, "--severity=style", *map(str, FILES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_plugin_handles_devstack_phases():
    plugin = (DEVSTACK / "plugin.sh").read_text()
    for mode in ("stack", "unstack", "clean"):
        assert f'"$1" == "{mode}"' in plugin
    for phase in ("install", "post-config", "extra"):
        assert re.search(rf"^\s+{phase}\)$", plugin, re.MULTILINE), phase


def test_plugin_starts_our_console_scripts_in_place_of_upstreams():
    plugin = (DEVSTACK / "plugin.sh").read_text()
    settings = (DEVSTACK / "settings").read_text()
    for script in CONSOLE_SCRIPTS:
        assert f"$NOVA_FS_BIN_DIR/{script} " in plugin, script
    assert "disable_service n-api" in settings
    for service in re.findall(r"run_process (\S+) ", plugin):
        assert service in settings, f"{service} is started but never enabled"
