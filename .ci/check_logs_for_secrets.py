#!/usr/bin/env python3
"""Fail if any log a test run wrote repeats a secret the tests used.

Usage: check_logs_for_secrets.py SECRETS_FILE ROOT...

SECRETS_FILE lists the secrets, one a line (tests/fixtures/secrets.py
writes it); every log file under each ROOT (``*.log``, rotated logs,
``*.stderr``, ``*.stdout``, ``*.out``, ``*.err``) is searched for each. A
hit names the file, the line number and which secret (by its position in
the list and its length, never the secret itself). Exits 1 on a hit or when
no secret was registered (the fixtures did not run), else 0.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LOG_NAME = re.compile(r"(\.log(\.\d+)?|\.stderr|\.stdout|\.out|\.err)$")


def _secrets(path: Path) -> list[str]:
    if not path.exists():
        return []
    seen: dict[str, None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line:
            seen.setdefault(line, None)
    return list(seen)


def _logs(roots: list[Path]):
    for root in roots:
        for path in sorted(root.rglob("*")):
            if LOG_NAME.search(path.name) and path.is_file() and not path.is_symlink():
                yield path


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    secrets = _secrets(Path(argv[1]))
    if not secrets:
        print(f"no secrets registered in {argv[1]}: nothing was checked")
        return 1
    needles = [(index, secret.encode()) for index, secret in enumerate(secrets, 1)]
    hits = checked = 0
    for log in _logs([Path(root) for root in argv[2:]]):
        checked += 1
        data = log.read_bytes()
        for index, needle in needles:
            if needle not in data:
                continue
            for number, line in enumerate(data.splitlines(), 1):
                if needle in line:
                    hits += 1
                    print(f"{log}:{number}: secret #{index} ({len(needle)} bytes)")
    print(
        f"{checked} log files checked for {len(secrets)} secrets: "
        f"{hits or 'no'} leaks found"
    )
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
