"""``nova-local-cloud``: start, stop and inspect a local deployment.

::

    nova-local-cloud start [--state-dir DIR] [--db mysql|postgresql|sqlite]
                           [--computes N] [--name NAME] [--db-url URL]
                           [--admin-password PW] [--port-offset N]
    nova-local-cloud status [--state-dir DIR]
    nova-local-cloud stop [--state-dir DIR]
    nova-local-cloud destroy [--state-dir DIR]

The state directory defaults to ``$NOVA_LOCAL_CLOUD_STATE``, else
``$XDG_STATE_HOME/nova-local-cloud`` (``~/.local/state/nova-local-cloud``).
Options of ``start`` only matter the first time; a later ``start`` resumes the
saved deployment and refuses options that contradict it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from nova.launcher import state
from nova.launcher.deployment import Deployment
from nova.launcher.errors import LauncherError, StateMismatch
from nova.launcher.settings import DB_BACKENDS, DeploymentSettings, Ports

PROG = "nova-local-cloud"
EXIT_NOT_RUNNING = 3  # as LSB init scripts report "program is not running"


def default_state_dir() -> Path:
    return state.default_state_dir(PROG, "NOVA_LOCAL_CLOUD_STATE")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run Keystone, Placement, Glance and our Nova daemons locally.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument(
            "--state-dir",
            type=Path,
            default=None,
            help="where the deployment keeps config, data, logs and pidfiles "
            f"(default: {default_state_dir()})",
        )
        return sub

    start = command("start", "start the deployment (create it the first time)")
    start.add_argument(
        "--db",
        choices=DB_BACKENDS,
        default=None,
        help="where the databases live (default: mysql, i.e. MariaDB)",
    )
    start.add_argument(
        "--db-url",
        default=None,
        help="administrative SQLAlchemy URL of the database server "
        "(default: root@127.0.0.1 for mysql, postgres@127.0.0.1 for postgresql)",
    )
    start.add_argument(
        "--computes", type=int, default=None, help="number of nova-compute hosts (1)"
    )
    start.add_argument(
        "--name",
        default=None,
        help="deployment name; prefixes databases, vhosts and cloud names, so "
        "deployments side by side need different ones (default: local)",
    )
    start.add_argument(
        "--admin-password",
        default=None,
        help="password of admin, demo and demo-reader (default: secret)",
    )
    start.add_argument(
        "--port-offset",
        type=int,
        default=None,
        help="add N to every port (5000, 8778, 9292, 8774, 8775, 6080, 6083, 8080)",
    )
    start.add_argument(
        "--dashboard",
        action="store_true",
        default=None,
        help="also run Horizon, the dashboard, on port 8080 "
        "(needs `pip install horizon`)",
    )
    command("stop", "stop every process of the deployment (data is kept)")
    command("status", "show which processes run (exit 3 unless all do)")
    command("destroy", "stop, drop databases and vhosts, delete the state dir")
    return parser


def _requested(args: argparse.Namespace) -> dict[str, object]:
    """The settings the user spelled out on the command line."""
    requested: dict[str, object] = {
        "name": args.name,
        "db": args.db,
        "db_url": args.db_url,
        "computes": args.computes,
        "admin_password": args.admin_password,
        "dashboard": args.dashboard,
    }
    if args.port_offset is not None:
        requested["ports"] = Ports().offset(args.port_offset)
    return {key: value for key, value in requested.items() if value is not None}


def _start(state_dir: Path, args: argparse.Namespace) -> int:
    requested = _requested(args)
    deployment = Deployment(state_dir)
    if deployment.exists and requested.pop("dashboard", False):
        # The dashboard can be added to a deployment made without it.
        deployment.settings.dashboard = True
        deployment.settings.save(deployment.state.settings_file)
    if deployment.exists:
        differing = {
            key: value
            for key, value in requested.items()
            if getattr(deployment.settings, key) != value
        }
        if differing:
            raise StateMismatch(
                f"{deployment.state.root} holds deployment "
                f"{deployment.settings.name!r} created with other "
                f"{', '.join(sorted(differing))}; use another --state-dir, "
                f"or `{PROG} destroy` it first"
            )
    else:
        deployment = Deployment(state_dir, DeploymentSettings(**requested))  # type: ignore[arg-type]
    deployment.start()
    return 0


def _status(state_dir: Path) -> int:
    deployment = Deployment.open(state_dir)
    settings = deployment.settings
    print(
        f"deployment {settings.name!r} in {deployment.state.root} "
        f"(db {settings.db}, {settings.computes} compute(s))"
    )
    statuses = deployment.status()
    width = max((len(s.name) for s in statuses), default=0)
    for status in statuses:
        if status.running:
            detail = f"running  pid {status.pid:<7} RSS {status.rss_kib // 1024} MiB"
        else:
            detail = "stopped"
        print(f"  {status.name:<{width}}  {detail}")
    all_running = bool(statuses) and all(s.running for s in statuses)
    return 0 if all_running else EXIT_NOT_RUNNING


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    state_dir = args.state_dir or default_state_dir()
    try:
        if args.command == "start":
            return _start(state_dir, args)
        if args.command == "stop":
            Deployment.open(state_dir).stop()
            return 0
        if args.command == "status":
            return _status(state_dir)
        if args.command == "destroy":
            Deployment.open(state_dir).destroy()
            print(f"destroyed the deployment in {state_dir}")
            return 0
    except (LauncherError, ValueError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    raise AssertionError(f"unhandled command {args.command}")


if __name__ == "__main__":
    sys.exit(main())
