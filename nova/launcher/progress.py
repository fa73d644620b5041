"""Progress lines with timings, safe to print from several threads."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import TextIO


class Progress:
    """Prints ``[  12.3s] keystone: ready (2.6 s)`` style lines.

    The bracket is the time since this object was created (the start of the
    whole operation); the parenthesis, when present, is the step's own time.
    ``out=None`` silences it.
    """

    def __init__(self, out: TextIO | None = sys.stdout) -> None:
        self.out = out
        self.began = time.monotonic()
        self._lock = threading.Lock()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.began

    def line(self, message: str) -> None:
        if self.out is None:
            return
        with self._lock:
            self.out.write(f"[{self.elapsed:6.1f}s] {message}\n")
            self.out.flush()

    @contextlib.contextmanager
    def step(self, label: str) -> Iterator[None]:
        """Time the enclosed block and print ``label (N.N s)`` when it ends."""
        began = time.monotonic()
        yield
        self.line(f"{label} ({time.monotonic() - began:.1f} s)")
