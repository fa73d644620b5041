"""The toolkit nova-manage's command classes are written with.

An action is a public method of a command class; :func:`args` declares its
command-line arguments the way ``argparse.add_argument`` takes them. Output
for people goes to stdout; errors go to stderr as one line, with every URL's
password masked.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from nova import utils

# Argument destinations get this prefix: oslo.config exposes parsed
# sub-command values as attributes next to its registered options, and names
# such as "host" or "verbose" would clash with them.
DEST_PREFIX = "action_kwarg_"

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"]+")


def args(*flags: str, **kwargs: Any) -> Callable:
    """Declare one command-line argument of an action (stackable)."""

    def decorate(function: Callable) -> Callable:
        declared = function.__dict__.setdefault("manage_args", [])
        # Decorators apply bottom-up; keep the order they are written in.
        declared.insert(0, (flags, kwargs))
        return function

    return decorate


def mask_urls(text: str) -> str:
    """``text`` with the password of every URL in it masked."""
    return _URL.sub(lambda match: utils.mask_url_password(match.group(0)), text)


def error(message: str) -> None:
    """Report a failure on stderr as a single line."""
    line = " ".join(mask_urls(str(message)).split())
    print(f"ERROR: {line}", file=sys.stderr)


def warn(message: str) -> None:
    print(f"WARNING: {mask_urls(message)}", file=sys.stderr)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A boxed table with centred cells, as upstream nova-manage prints."""
    cells = [[str(value) for value in row] for row in rows]
    widths = [len(header) for header in headers]
    for row in cells:
        widths = [max(pair) for pair in zip(widths, map(len, row), strict=True)]
    rule = "+" + "+".join("-" * (width + 2) for width in widths) + "+"

    def line(values: Sequence[str]) -> str:
        pairs = zip(values, widths, strict=True)
        return "|" + "|".join(f" {value:^{width}} " for value, width in pairs) + "|"

    lines = [rule, line(headers), rule, *(line(row) for row in cells)]
    if cells:
        lines.append(rule)
    return "\n".join(lines)
