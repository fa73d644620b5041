import json
import os
import subprocess
import sys

from nova.launcher import forkrun

TARGET = "tests.unit.launcher.forkrun_target:main"


def _run(tmp_path, plan):
    record = tmp_path / "record"
    done = subprocess.run(
        [sys.executable, "-m", "nova.launcher.forkrun", TARGET, json.dumps(plan)],
        env={**os.environ, "FORKRUN_RECORD": str(record)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = record.read_text().splitlines() if record.exists() else []
    return done.returncode, lines


def test_stages_run_in_order_with_each_argv(tmp_path):
    code, lines = _run(
        tmp_path, [[["prog", "a"], ["prog", "b"]], [["prog", "c", "--flag"]]]
    )
    assert code == 0
    assert sorted(lines[:2]) == ["prog a", "prog b"]
    assert lines[2] == "prog c --flag"


def test_a_failing_command_stops_later_stages(tmp_path):
    code, lines = _run(tmp_path, [[["prog", "exit=3"]], [["prog", "never"]]])
    assert code == 3
    assert lines == ["prog exit=3"]


def test_an_exception_is_exit_status_one(tmp_path):
    code, _ = _run(tmp_path, [[["prog", "raise"]]])
    assert code == 1


def test_usage_error():
    assert forkrun.main(["only-one-argument"]) == 2
