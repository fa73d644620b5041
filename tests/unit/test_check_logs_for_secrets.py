"""CI's leak check: every log a test run wrote, searched for every secret
the fixtures registered."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.fixtures import secrets

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "check_logs_for_secrets.py"
LEAKED = "pw-5b3e0c1d-leaked"
KEPT = "pw-9a7f2e44-kept"


def _check(secrets_file: Path, root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(secrets_file), str(root)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_fixtures_registry_is_what_the_check_reads(tmp_path, monkeypatch):
    registry = tmp_path / "secrets.txt"
    monkeypatch.setenv(secrets.ENV, str(registry))
    assert secrets.secret(LEAKED) == LEAKED
    secrets.register(KEPT, "")
    assert registry.read_text().splitlines() == [LEAKED, KEPT]


def test_nothing_is_written_without_the_variable(tmp_path, monkeypatch):
    monkeypatch.delenv(secrets.ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    secrets.register(LEAKED)
    assert list(tmp_path.iterdir()) == []


def test_a_secret_in_any_log_fails_the_check_without_being_shown(tmp_path):
    registry = tmp_path / "secrets.txt"
    registry.write_text(f"{LEAKED}\n{KEPT}\n")
    root = tmp_path / "run"
    (root / "popen-gw0" / "cloud").mkdir(parents=True)
    (root / "popen-gw0" / "cloud" / "nova-api.log").write_text("all good\n")
    (root / "popen-gw0" / "cloud" / "compute.stderr").write_text(
        f"fine\nPassword is {LEAKED}\n"
    )
    # Not a log: configuration files hold secrets by design.
    (root / "nova.conf").write_text(f"password = {KEPT}\n")
    done = _check(registry, root)
    assert done.returncode == 1
    assert "compute.stderr:2: secret #1" in done.stdout
    assert "nova.conf" not in done.stdout
    assert LEAKED not in done.stdout + done.stderr


def test_clean_logs_pass(tmp_path):
    registry = tmp_path / "secrets.txt"
    registry.write_text(f"{KEPT}\n")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "api.log").write_text("no secret here\n")
    done = _check(registry, tmp_path / "run")
    assert done.returncode == 0, done.stdout
    assert "1 log files checked for 1 secrets: no leaks found" in done.stdout


def test_an_empty_registry_fails(tmp_path):
    done = _check(tmp_path / "missing.txt", tmp_path)
    assert done.returncode == 1
