"""Exceptions the launcher raises; each message is meant for the operator."""

from __future__ import annotations


class LauncherError(Exception):
    """Base class: something the launcher could not do, said plainly."""


class PortsInUse(LauncherError):
    """Ports a service needs are already bound by another process."""

    def __init__(self, host: str, ports: dict[str, int]) -> None:
        self.host = host
        self.ports = dict(ports)
        listed = ", ".join(f"{port} ({name})" for name, port in self.ports.items())
        super().__init__(
            f"port(s) already in use on {host}: {listed}; stop whatever listens "
            "there or choose other ports"
        )


class CommandFailed(LauncherError):
    """A one-shot setup command exited non-zero or timed out."""


class ProcessNotReady(LauncherError):
    """A supervised process died or did not become ready in time."""


class StateMismatch(LauncherError):
    """The requested settings contradict those saved in the state directory."""
