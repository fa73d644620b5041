"""One-shot setup commands (``keystone-manage db_sync`` …) with logged output."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from nova.launcher.errors import CommandFailed
from nova.launcher.files import tail
from nova.utils import mask_url_password


def venv_script(name: str) -> str:
    """The path of console script ``name`` installed next to this interpreter.

    The unmodified services are installed in the same environment as this
    package; their scripts sit beside ``sys.executable`` (not resolved, so a
    virtualenv's ``bin`` is found even though its python is a symlink).
    """
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


def shown_command(argv: Sequence[str]) -> str:
    """``argv`` as a log line or an error message may show it: the
    passwords of URLs among the arguments (``--transport-url
    rabbit://nova:secret@...``) masked."""
    return " ".join(mask_url_password(arg) or arg for arg in argv)


def run_command(
    argv: Sequence[str],
    log_path: Path,
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 600.0,
) -> float:
    """Run ``argv`` to completion, appending its output to ``log_path``.

    Returns the seconds it took; raises :class:`CommandFailed` with the log
    tail if it exits non-zero or outlives ``timeout``.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    began = time.monotonic()
    with log_path.open("ab") as log:
        log.write(f"=== {time.strftime('%H:%M:%S')} $ {shown_command(argv)}\n".encode())
        log.flush()
        try:
            completed = subprocess.run(
                list(argv),
                cwd=cwd,
                env=full_env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise CommandFailed(
                f"{shown_command(argv)} did not finish within {timeout:g} s.\n"
                f"--- last lines of {log_path} ---\n{tail(log_path)}"
            ) from None
        except OSError as exc:
            raise CommandFailed(f"cannot run {argv[0]}: {exc}") from None
    if completed.returncode != 0:
        raise CommandFailed(
            f"{shown_command(argv)} exited with code {completed.returncode}.\n"
            f"--- last lines of {log_path} ---\n{tail(log_path)}"
        )
    return time.monotonic() - began
