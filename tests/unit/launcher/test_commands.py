"""Setup commands are logged, and reported when they fail, without the
passwords of the URLs among their arguments."""

from __future__ import annotations

import sys

import pytest

from nova.launcher.commands import run_command, shown_command
from nova.launcher.errors import CommandFailed

URL = "rabbit://nova:Pw-7c1d9e@127.0.0.1:5672/%2Fcell1"


def test_shown_command_masks_url_passwords_only():
    shown = shown_command(["nova-manage", "--transport-url", URL, "--verbose"])
    masked = "rabbit://nova:****@127.0.0.1:5672/%2Fcell1"
    assert shown == f"nova-manage --transport-url {masked} --verbose"


def test_the_command_log_and_the_failure_do_not_show_the_password(tmp_path):
    log = tmp_path / "setup.log"
    run_command([sys.executable, "-c", "pass", URL], log)
    with pytest.raises(CommandFailed) as failed:
        run_command([sys.executable, "-c", "raise SystemExit(3)", URL], log)
    assert "Pw-7c1d9e" not in log.read_text()
    assert "Pw-7c1d9e" not in str(failed.value)
    assert "rabbit://nova:****@" in log.read_text()
