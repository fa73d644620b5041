"""README's first command, run exactly as written, gives a working cloud.

The command (``python3 -m venv .venv && .venv/bin/pip install … &&
.venv/bin/nova-aio``) runs in a copy of the repository's tracked files, as a
fresh clone would, in its own session; only the environment points it at a
temporary state directory and at ports that are free (``NOVA_AIO_*``,
documented by ``nova-aio --help``). Once the cloud announces its image, the
real ``openstack`` CLI of that new virtualenv boots a server and waits for
ACTIVE. Then Ctrl-C (SIGINT to the foreground process group, as a terminal
sends it) must stop every process the command started: the whole process
tree, walked before the interrupt, is gone after it.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

from nova.launcher import proc
from nova.launcher.ports import ports_in_use
from nova.launcher.settings import Ports
from tests.fixtures.databases import skip_or_fail
from tests.fixtures.openstack_services import missing_packages

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.rst"
INSTALL_AND_START_TIMEOUT = 1200.0
ACTIVE_TIMEOUT = 300.0
STOP_TIMEOUT = 90.0
READY_LINE = "glance: image boot-sector"
CLOUD = "aio"


def first_command(readme: str) -> str:
    """The literal block of README's "Quick start" section: one command."""
    section = readme.split("Quick start\n-----------", 1)[1]
    block = re.search(r"::\n\n((?:    .*\n)+)", section)
    assert block, "README's Quick start has no literal block"
    lines = [line.strip() for line in block.group(1).splitlines() if line.strip()]
    assert len(lines) == 1, f"Quick start's first block is not one command: {lines}"
    return lines[0]


def test_readme_first_command_is_the_all_in_one():
    command = first_command(README.read_text())
    assert command.startswith("python3 -m venv .venv && ")
    assert command.endswith(".venv/bin/nova-aio")


def _free_port_offset() -> int:
    """An offset that moves every default port onto a free one."""
    defaults = vars(Ports())
    for _ in range(50):
        offset = random.randrange(20000, 40000)
        wanted = {name: port + offset for name, port in defaults.items()}
        if not ports_in_use(wanted):
            return offset
    raise AssertionError("no free set of ports found")


def _copy_tracked_files(destination: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=False
    )
    if listed.returncode != 0:  # not a git checkout: copy all but venvs
        shutil.copytree(
            REPO,
            destination,
            ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__"),
        )
        return
    for name in listed.stdout.decode().split("\0"):
        if name and (REPO / name).is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, target)


def _descendants(pid: int) -> dict[int, int]:
    """``{pid: start time}`` of ``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: dict[int, int] = {}
    pending = [pid]
    while pending:
        current = pending.pop()
        started = proc.start_time(current)
        if started is not None:
            found[current] = started
        pending += children.get(current, [])
    return found


def _survivors(processes: dict[int, int]) -> list[int]:
    """Those still alive (not zombies) and not replaced by a reused pid."""
    return [
        pid
        for pid, started in processes.items()
        if proc.is_alive(pid) and proc.start_time(pid) == started
    ]


class _Output:
    """The command's output, collected by a thread as it comes."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        for line in process.stdout:
            self.lines.append(line)

    @property
    def text(self) -> str:
        return "".join(self.lines)


def _start(argv: list[str], cwd: Path, env: dict[str, str], timeout: float):
    """Run ``argv`` in its own session until the cloud announces its image;
    the process, its output, and the seconds that took."""
    began = time.monotonic()
    shell = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output = _Output(shell)
    deadline = time.monotonic() + timeout
    try:
        while READY_LINE not in output.text:
            assert shell.poll() is None, f"the command exited:\n{output.text}"
            assert time.monotonic() < deadline, f"no cloud yet:\n{output.text}"
            time.sleep(1)
    except BaseException:
        _interrupt(shell)
        raise
    return shell, output, time.monotonic() - began


def _interrupt(shell: subprocess.Popen[str]) -> None:
    """Ctrl-C in a terminal: SIGINT to the whole foreground process group."""
    if shell.poll() is None:
        os.killpg(shell.pid, signal.SIGINT)
    try:
        shell.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(shell.pid, signal.SIGKILL)
        raise


def _stop_and_check_nothing_survives(shell, output, state: Path) -> None:
    tree = _descendants(shell.pid)
    names = {p.stem for p in (state / "run").glob("*.pid")}
    assert {"keystone", "placement", "glance"} <= names
    assert len(tree) > 4, tree  # nova-aio, three servers and their workers
    _interrupt(shell)
    assert shell.returncode == 0, output.text
    deadline = time.monotonic() + 10
    while _survivors(tree) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _survivors(tree) == [], f"left behind: {_survivors(tree)}\n{output.text}"
    assert "stopped keystone" in output.text


def _openstack(clone: Path, env: dict[str, str], state: Path, *args: str) -> dict:
    result = subprocess.run(
        [str(clone / ".venv" / "bin" / "openstack"), "--os-cloud", CLOUD, *args]
        + ["-f", "json"],
        env=dict(env, OS_CLIENT_CONFIG_FILE=str(state / "clouds.yaml")),
        capture_output=True,
        text=True,
        timeout=ACTIVE_TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_readme_first_command_boots_a_server_and_ctrl_c_stops_everything(
    tmp_path,
):
    missing = missing_packages()
    if missing:
        skip_or_fail(f"the local cloud needs {', '.join(missing)}")
    command = first_command(README.read_text())
    clone = tmp_path / "nova"
    _copy_tracked_files(clone)
    state = tmp_path / "state"
    env = dict(
        os.environ,
        NOVA_AIO_STATE_DIR=str(state),
        NOVA_AIO_PORT_OFFSET=str(_free_port_offset()),
    )
    env.pop("VIRTUAL_ENV", None)
    env.pop("OS_CLOUD", None)

    began = time.monotonic()
    shell, output, ready = _start(
        ["bash", "-c", command], clone, env, INSTALL_AND_START_TIMEOUT
    )
    try:
        server = _openstack(
            clone,
            env,
            state,
            *("server", "create", "--flavor", "m1.tiny", "--image", "boot-sector"),
            *("--no-network", "--wait", "s1"),
        )
        active = time.monotonic() - began
        assert server["status"] == "ACTIVE", server
        assert server["name"] == "s1"
        print(
            f"\nREADME command: cloud ready after {ready:.0f} s, first server "
            f"ACTIVE after {active:.0f} s (venv + install included)"
        )
    finally:
        _stop_and_check_nothing_survives(shell, output, state)

    # The next start resumes the same cloud, server included.
    shell, output, ready = _start(
        [str(clone / ".venv" / "bin" / "nova-aio")], clone, env, ACTIVE_TIMEOUT
    )
    try:
        assert "(resuming)" in output.text
        shown = _openstack(clone, env, state, "server", "show", "s1")
        assert shown["status"] == "ACTIVE", shown
        print(f"resumed in {ready:.0f} s")
    finally:
        _stop_and_check_nothing_survives(shell, output, state)
