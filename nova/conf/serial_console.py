"""``[serial_console]``: interactive serial consoles over websockets."""

from oslo_config import cfg

serial_console_group = cfg.OptGroup(
    "serial_console",
    title="Serial console options",
    help="Interactive serial consoles, reached through nova-serialproxy.",
)

serial_console_opts = [
    cfg.BoolOpt(
        "enabled",
        default=False,
        help="Give instances an interactive serial console.",
    ),
    cfg.StrOpt(
        "port_range",
        default="10000:20000",
        regex=r"^\d+:\d+$",
        help="Range of TCP ports, as ``min:max``, the compute host gives "
        "serial consoles.",
    ),
    cfg.URIOpt(
        "base_url",
        default="ws://127.0.0.1:6083/",
        help="Public websocket URL that serial console URLs start with.",
    ),
    cfg.HostAddressOpt(
        "proxyclient_address",
        default="127.0.0.1",
        help="Address of the compute host that the proxy connects to.",
    ),
    cfg.HostAddressOpt(
        "serialproxy_host",
        default="0.0.0.0",
        help="Address nova-serialproxy listens on.",
    ),
    cfg.PortOpt(
        "serialproxy_port",
        default=6083,
        help="Port nova-serialproxy listens on.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(serial_console_group)
    conf.register_opts(serial_console_opts, group=serial_console_group)


def list_opts() -> dict:
    return {serial_console_group: serial_console_opts}
