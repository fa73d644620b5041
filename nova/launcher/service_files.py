"""Where an OpenStack service launched from PyPI keeps its files, and where
it listens: one naming for Keystone, Placement, Glance, Neutron and the
others, which each say only their configuration file's name."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from nova.launcher.ports import LOOPBACK
from nova.launcher.state import StateDir


class ServiceFiles:
    """Mixed into a service's dataclass, which has ``state``, ``port`` and
    ``name`` fields."""

    CONFIG_NAME: ClassVar[str]
    # The paste pipeline file, for the services that have one.
    PASTE_NAME: ClassVar[str] = ""

    state: StateDir
    port: int
    name: str

    @property
    def directory(self) -> Path:
        return self.state.service(self.name)

    @property
    def config_path(self) -> Path:
        return self.directory / self.CONFIG_NAME

    @property
    def paste_path(self) -> Path:
        return self.directory / self.PASTE_NAME

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"
