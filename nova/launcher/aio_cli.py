"""``nova-aio``: a whole compute cloud on loopback, in the foreground.

::

    nova-aio [--state-dir DIR] [--transport-url URL] [--compute-driver DRIVER]
             [--admin-password PW] [--port-offset N]

Keystone (5000), Placement (8778), Glance (9292) and our Compute API (8774)
with the scheduler, conductor and a compute, all on SQLite files in the
state directory; Ctrl-C stops everything, and the next ``nova-aio`` with the
same state directory resumes the same cloud. The state directory defaults to
``$NOVA_AIO_STATE_DIR``, else ``$XDG_STATE_HOME/nova-aio``
(``~/.local/state/nova-aio``); ``$NOVA_AIO_PORT_OFFSET`` is the default of
``--port-offset``. ``nova-local-cloud`` runs the same cloud as one process
per service over RabbitMQ, in the background.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from keystoneauth1 import exceptions as ks_exceptions

from nova.launcher import state
from nova.launcher.all_in_one import AllInOne
from nova.launcher.errors import LauncherError
from nova.launcher.settings import DeploymentSettings, Ports

PROG = "nova-aio"
NAME = "aio"  # prefixes database files and cloud names: clouds aio, aio-admin
IN_MEMORY_TRANSPORT = "fake:///"
LIBVIRT_DRIVER = "libvirt.LibvirtDriver"


def default_state_dir() -> Path:
    return state.default_state_dir(PROG, "NOVA_AIO_STATE_DIR")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run a whole compute cloud on loopback until Ctrl-C: "
        "Keystone, Placement, Glance and every Nova service.",
        epilog="Environment: NOVA_AIO_STATE_DIR (default of --state-dir), "
        "NOVA_AIO_PORT_OFFSET (default of --port-offset). Options other than "
        "--state-dir only matter the first time; a later start resumes the "
        "saved cloud and refuses a different --transport-url, "
        "--compute-driver or --port-offset.",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help=f"where the cloud keeps config, databases and logs "
        f"(default: {default_state_dir()})",
    )
    parser.add_argument(
        "--transport-url",
        default=None,
        help="oslo.messaging URL of the message queue, e.g. "
        "rabbit://guest:guest@127.0.0.1:5672/ (default: in memory, "
        f"{IN_MEMORY_TRANSPORT})",
    )
    parser.add_argument(
        "--compute-driver",
        default=None,
        help="virt driver of the compute: fake.FakeDriver (default) or "
        f"{LIBVIRT_DRIVER} (QEMU guests, [libvirt] virt_type = qemu)",
    )
    parser.add_argument(
        "--admin-password",
        default=None,
        help="password of admin, demo and demo-reader (default: secret)",
    )
    parser.add_argument(
        "--port-offset",
        type=int,
        default=int(os.environ.get("NOVA_AIO_PORT_OFFSET") or 0),
        help="add N to every port (5000, 8778, 9292, 8774, 8775)",
    )
    return parser


def settings_from(args: argparse.Namespace) -> DeploymentSettings:
    """The settings a first start creates the cloud with."""
    requested: dict[str, object] = {
        "transport_url": args.transport_url or IN_MEMORY_TRANSPORT,
        "compute_driver": args.compute_driver or "fake.FakeDriver",
        "ports": Ports().offset(args.port_offset),
    }
    if args.admin_password:
        requested["admin_password"] = args.admin_password
    return DeploymentSettings(name=NAME, db="sqlite", all_in_one=True, **requested)  # type: ignore[arg-type]


def _requested_settings(state_dir: Path, args: argparse.Namespace):
    """Settings from the options; on a resumed cloud the options left out
    keep their saved values (those given must agree with them)."""
    saved = DeploymentSettings.load(state_dir / "deployment.json")
    if saved is not None:
        args.transport_url = args.transport_url or saved.transport_url
        args.compute_driver = args.compute_driver or saved.compute_driver
    return settings_from(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    state_dir = (args.state_dir or default_state_dir()).expanduser().absolute()
    try:
        cloud = AllInOne(state_dir, _requested_settings(state_dir, args))
        cloud.run()
    except (LauncherError, ValueError, ks_exceptions.ClientException) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    return 0


def run() -> None:
    """``nova-aio``'s console script: :func:`main`, then a prompt exit.

    Library threads (oslo.messaging's executors, HTTP keep-alive pools)
    are stopped but not all are daemon threads; the cloud is down and the
    logs are flushed, so nothing is lost by not waiting for them.
    """
    code = main()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
