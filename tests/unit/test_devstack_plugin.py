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
CONSOLE_SCRIPTS = (
    "nova-api",
    "nova-scheduler",
    "nova-conductor",
    "nova-compute",
    "nova-serialproxy",
    "nova-spicehtml5proxy",
)


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


def test_console_proxies_run_in_the_cell_when_enabled():
    plugin = (DEVSTACK / "plugin.sh").read_text()
    settings = (DEVSTACK / "settings").read_text()
    # Off by default, as upstream's n-sproxy and n-spice.
    enabled = re.findall(r"^enable_service (.*)$", settings, re.MULTILINE)
    assert not any("proxy" in line for line in enabled)
    for proxy in ("nova-serialproxy", "nova-spicehtml5proxy"):
        assert proxy in settings
        assert re.search(
            rf'run_process {proxy} "\$NOVA_FS_BIN_DIR/{proxy} \$\{{cell\[\*\]\}}"',
            plugin,
        ), proxy
        assert f"is_service_enabled {proxy}" in plugin
        # Stopped on unstack.
        assert re.search(rf"for service in .*{proxy}", plugin), proxy
    # Their consoles are turned on where the API, proxy and compute read them.
    assert 'nova_fs_console_config "$NOVA_FS_CONF"' in plugin
    assert 'nova_fs_console_config "$NOVA_FS_CELL1_CONF"' in plugin
    assert "install_package spice-html5" in plugin
