"""``nova-manage``: the operator's tool for databases and cells.

Usage: ``nova-manage [options] <category> <action> [<args>]``, with the
categories ``api_db``, ``db``, ``cell_v2`` and ``placement``. The usual oslo options
(``--config-file``, ``--config-dir``, ``--log-file``, ``--debug`` …) come
before the category.

Each action returns its exit code. Whatever goes wrong is reported as one
line on stderr, with passwords masked, and exit code 255 unless the action
documents another; there are no tracebacks (``--debug`` logs them).
"""

from __future__ import annotations

import argparse
import inspect
import logging
import sys
import traceback
from collections.abc import Sequence

import sqlalchemy as sa
from oslo_config import cfg

import nova.conf
from nova import config, exception, objects
from nova.cmd import manage_common
from nova.cmd.manage_cell_v2 import CellV2Commands
from nova.cmd.manage_db import ApiDbCommands, DbCommands
from nova.cmd.manage_placement import PlacementCommands

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

UNEXPECTED_ERROR = 255


def _categories() -> dict[str, type]:
    return {
        "api_db": ApiDbCommands,
        "cell_v2": CellV2Commands,
        "db": DbCommands,
        "placement": PlacementCommands,
    }


def _actions(commands: object) -> dict[str, object]:
    return {
        name: method
        for name, method in inspect.getmembers(commands, inspect.ismethod)
        if not name.startswith("_")
    }


def _summary(function: object) -> str | None:
    doc = inspect.getdoc(function)
    return doc.splitlines()[0] if doc else None


def _parameter(flags, kwargs) -> str:
    """The action's parameter an argument fills."""
    if flags[0].startswith("-"):
        return kwargs.get("dest", flags[0].lstrip("-").replace("-", "_"))
    return flags[0]


def _add_argument(parser: argparse.ArgumentParser, flags, kwargs) -> None:
    dest = manage_common.DEST_PREFIX + _parameter(flags, kwargs)
    kwargs = {key: value for key, value in kwargs.items() if key != "dest"}
    if flags[0].startswith("-"):
        parser.add_argument(*flags, dest=dest, **kwargs)
    else:
        kwargs.setdefault("metavar", flags[0].upper())
        parser.add_argument(dest, **kwargs)


def _add_command_parsers(subparsers) -> None:
    """Build ``<category> <action> [<args>]`` from the command classes."""
    for category, command_class in _categories().items():
        commands = command_class()
        category_parser = subparsers.add_parser(
            category, help=_summary(command_class), description=_summary(command_class)
        )
        category_parser.set_defaults(category_parser=category_parser)
        action_parsers = category_parser.add_subparsers(
            title="Actions", dest="action", metavar="<action>"
        )
        for name, method in _actions(commands).items():
            action_parser = action_parsers.add_parser(
                name,
                help=_summary(method),
                description=inspect.getdoc(method),
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
            action_parser.set_defaults(action_fn=method)
            for flags, kwargs in getattr(method, "manage_args", []):
                _add_argument(action_parser, flags, kwargs)


category_opt = cfg.SubCommandOpt(
    "category",
    title="Command categories",
    help="Available categories",
    handler=_add_command_parsers,
)


def _action_kwargs(function) -> dict[str, object]:
    names = (_parameter(*declared) for declared in getattr(function, "manage_args", []))
    return {
        name: getattr(CONF.category, manage_common.DEST_PREFIX + name) for name in names
    }


def _load_configuration(argv: Sequence[str]) -> int | None:
    """Parse the command line and config files; an exit code if that failed."""
    try:
        CONF.register_cli_opt(category_opt)
    except cfg.ArgsAlreadyParsedError:
        # Something else in this process parsed a command line already;
        # sub-commands can only be registered on an unparsed CONF.
        CONF.clear()
        CONF.register_cli_opt(category_opt)
    try:
        config.parse_args(argv)
    except SystemExit as exc:  # argparse: --help, or a usage error
        return exc.code if isinstance(exc.code, int) else 2
    except cfg.Error as exc:
        manage_common.error(f"Invalid configuration: {exc}")
        return UNEXPECTED_ERROR
    if not CONF.debug:
        # alembic announces every migration step at INFO.
        logging.getLogger("alembic").setLevel(logging.WARNING)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one nova-manage action; ``argv`` defaults to ``sys.argv``."""
    argv = list(sys.argv if argv is None else argv)
    try:
        failed = _load_configuration(argv)
        if failed is not None:
            return failed
        objects.register_all()
        function = getattr(CONF.category, "action_fn", None)
        if function is None:
            CONF.category.category_parser.print_help()
            return 2
        return _run(function)
    finally:
        CONF.clear()
        CONF.unregister_opt(category_opt)


def _run(function) -> int:
    try:
        result = function(**_action_kwargs(function))
    except Exception as exc:  # the command line reports; it never crashes
        # Exceptions may quote SQL parameters, URLs among them.
        trace = "".join(traceback.format_exception(exc))
        LOG.debug("%s failed: %s", function.__name__, manage_common.mask_urls(trace))
        manage_common.error(_describe(exc))
        return UNEXPECTED_ERROR
    return 0 if result is None else int(result)


def _describe(exc: Exception) -> str:
    """What went wrong, for the operator, without SQL or bound parameters."""
    if isinstance(exc, exception.NovaException):
        return exc.format_message()
    if isinstance(exc, sa.exc.DBAPIError) and exc.orig is not None:
        lines = str(exc.orig).strip().splitlines()
        detail = lines[0] if lines else type(exc.orig).__name__
        return f"Database error: {detail}"
    return f"An unexpected error occurred: {type(exc).__name__}: {exc}"


if __name__ == "__main__":
    sys.exit(main())
