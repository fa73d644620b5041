"""The layout of a deployment's state directory.

Everything a deployment owns lives under one directory, so it can be resumed
(``start`` again after ``stop``), inspected, and thrown away::

    deployment.json       settings the deployment was created with
    clouds.yaml, *-openrc client configuration
    logs/                 one log per process and per setup command
    run/                  one pidfile per supervised process
    steps/                markers of one-time setup steps already done
    db/                   SQLite files (when no database server is used)
    keystone/ placement/ glance/ nova/   each service's configuration and data
"""

from __future__ import annotations

import os
from pathlib import Path


def default_state_dir(program: str, variable: str) -> Path:
    """``$<variable>`` if set, else ``$XDG_STATE_HOME/<program>``
    (``~/.local/state/<program>``)."""
    explicit = os.environ.get(variable)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / program


class StateDir:
    """Paths inside a deployment's state directory, and step markers."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).expanduser().absolute()

    @property
    def settings_file(self) -> Path:
        return self.root / "deployment.json"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def run(self) -> Path:
        return self.root / "run"

    @property
    def steps(self) -> Path:
        return self.root / "steps"

    @property
    def db(self) -> Path:
        return self.root / "db"

    @property
    def clouds_yaml(self) -> Path:
        return self.root / "clouds.yaml"

    def service(self, name: str) -> Path:
        """The directory of one service's configuration and data."""
        return self.root / name

    def log(self, name: str) -> Path:
        return self.logs / f"{name}.log"

    def create(self) -> None:
        """Create the directory skeleton (idempotent)."""
        for path in (self.root, self.logs, self.run, self.steps, self.db):
            path.mkdir(parents=True, exist_ok=True)

    def step_done(self, step: str) -> bool:
        """Whether the one-time setup step ``step`` completed before."""
        return (self.steps / step).exists()

    def mark_step(self, step: str) -> None:
        """Record that ``step`` completed, so a resumed start skips it."""
        self.steps.mkdir(parents=True, exist_ok=True)
        (self.steps / step).touch()

    def forget_step(self, step: str) -> None:
        (self.steps / step).unlink(missing_ok=True)
