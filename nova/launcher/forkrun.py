"""Run several invocations of one console entry point, importing it once.

``keystone-manage`` spends most of each run importing Keystone (about 3 s
of CPU); its four set-up commands would pay that four times. This module is
run as a program::

    python -m nova.launcher.forkrun keystone.cmd.manage:main PLAN_JSON

where ``PLAN_JSON`` is a list of stages, each a list of argument vectors
(``argv[0]`` included). It imports the entry point once, then for every
command forks a child that sets ``sys.argv`` and calls the entry point, just
as the console script would, in a pristine copy of the imported process. The
commands of one stage run concurrently; a stage starts when the previous one
has succeeded. The exit status is the first non-zero child status.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence


def _load(entry_point: str) -> Callable[[], object]:
    module, _, attribute = entry_point.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _child(main: Callable[[], object], argv: Sequence[str]) -> int:
    sys.argv = list(argv)
    try:
        result = main()
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return result if isinstance(result, int) else 0


def run(entry_point: str, plan: Sequence[Sequence[Sequence[str]]]) -> int:
    """Run ``plan`` (stages of argument vectors); return the exit status."""
    main = _load(entry_point)
    for stage in plan:
        children = {}
        for argv in stage:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                code = _child(main, argv)
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            children[pid] = argv
        failed = 0
        for pid, argv in children.items():
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            print(f"forkrun: {' '.join(argv)} exited {code}", flush=True)
            if code != 0 and not failed:
                failed = code if code > 0 else 1
        if failed:
            return failed
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m nova.launcher.forkrun MODULE:FUNC PLAN_JSON")
        return 2
    return run(args[0], json.loads(args[1]))


if __name__ == "__main__":
    sys.exit(main())
