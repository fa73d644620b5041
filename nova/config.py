"""Command-line and configuration file parsing shared by every nova service."""

from collections.abc import Sequence
from importlib import metadata

from oslo_log import log

import nova.conf
from nova.conf import log_levels

CONF = nova.conf.CONF


def _version() -> str:
    try:
        return metadata.version("nova")
    except metadata.PackageNotFoundError:
        # Running from a source tree that was never installed.
        return "unknown"


def _register_log_opts() -> None:
    # oslo.log adds command-line options, which cannot be registered again
    # once CONF has parsed a command line (a second parse_args in a process),
    # nor at all while CONF holds a command line parsed without them: such a
    # parse is forgotten first (the one below replaces it anyway).
    if "log_file" not in CONF:
        CONF.clear()
        log.register_options(CONF)


def parse_args(
    argv: Sequence[str],
    default_config_files: Sequence[str] | None = None,
    configure_logging: bool = True,
) -> None:
    """Load nova's configuration from ``argv`` and the configuration files.

    ``argv[0]`` is the program name. ``--config-file`` (repeatable, later
    files win), ``--config-dir`` and oslo.log's ``--log-file``, ``--debug``
    … are understood. Without ``--config-file``, oslo.config's usual places
    (``/etc/nova/nova.conf`` …) are searched unless ``default_config_files``
    names the files. With ``configure_logging`` oslo.log is then set up from
    the loaded options.
    """
    _register_log_opts()
    log.set_defaults(default_log_levels=log_levels.default_log_levels())
    CONF(
        list(argv[1:]),
        project="nova",
        version=_version(),
        default_config_files=default_config_files,
    )
    if configure_logging:
        log.setup(CONF, "nova", version=_version())
