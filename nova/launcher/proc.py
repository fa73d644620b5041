"""Inspecting processes through Linux's /proc: liveness, identity, groups."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def _stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name, or None if gone."""
    try:
        raw = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    # The command name sits in parentheses and may itself contain spaces or
    # parentheses, so split after the last ')'.
    return raw[raw.rindex(")") + 2 :].split()


def is_alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie waiting to be reaped."""
    fields = _stat_fields(pid)
    if fields is None:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return fields[0] not in ("Z", "X")


def start_time(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot; None if it is gone.

    A pid can be reused after its process exits; (pid, start time) cannot,
    so recording both identifies a process across launcher invocations.
    (The environment is no use for that: gunicorn's setproctitle overwrites
    the memory ``/proc/<pid>/environ`` shows.)
    """
    fields = _stat_fields(pid)
    # fields[0] is field 3 of proc(5); starttime is field 22.
    return int(fields[19]) if fields else None


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is ``pgid``."""
    members = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        # fields: state, ppid, pgrp, ...
        if fields and fields[0] not in ("Z", "X") and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB (0 if it is gone)."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0
