"""A console entry point for tests of :mod:`nova.launcher.forkrun`."""

import os
import sys


def main() -> int:
    with open(os.environ["FORKRUN_RECORD"], "a") as record:
        record.write(" ".join(sys.argv) + "\n")
    command = sys.argv[1]
    if command.startswith("exit="):
        sys.exit(int(command.split("=")[1]))
    if command == "raise":
        raise RuntimeError("boom")
    return 0
