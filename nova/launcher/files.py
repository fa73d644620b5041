"""Writing generated files atomically, with private permissions by default."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def write_file(path: Path, text: str, mode: int = 0o600) -> Path:
    """Replace ``path`` with ``text`` in one rename, so readers never see half.

    Generated files hold passwords, hence the 0600 default.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def tail(path: Path, lines: int = 30) -> str:
    """The last ``lines`` lines of a text file, or a note that it is absent."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 64 * 1024))
            data = handle.read()
    except FileNotFoundError:
        return f"({path} does not exist)"
    text = data.decode("utf-8", errors="replace").splitlines()[-lines:]
    return "\n".join(text)


def installed_config(project: str, name: str) -> Path | None:
    """A configuration file an installed service ships
    (``<prefix>/etc/<project>/<name>``, e.g. a paste pipeline), if found."""
    for prefix in (sys.prefix, sys.base_prefix, "/usr/local", "/usr", "/"):
        candidate = Path(prefix) / "etc" / project / name
        if candidate.is_file():
            return candidate
    return None
