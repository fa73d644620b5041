"""``[console]``: what every console proxy checks."""

from oslo_config import cfg

console_group = cfg.OptGroup(
    "console",
    title="Console proxy options",
    help="Checks the console proxies make on browser connections.",
)

console_opts = [
    cfg.ListOpt(
        "allowed_origins",
        default=[],
        deprecated_name="console_allowed_origins",
        deprecated_group="DEFAULT",
        help="Host names, besides the proxy's own, that browser pages opening "
        "a console may come from (the WebSocket's Origin header).",
    ),
    cfg.StrOpt(
        "ssl_ciphers",
        help="OpenSSL cipher list of the proxy's TLS connections.",
    ),
    cfg.StrOpt(
        "ssl_minimum_version",
        default="default",
        choices=["default", "tlsv1_1", "tlsv1_2", "tlsv1_3"],
        help="Oldest TLS version the proxy accepts.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(console_group)
    conf.register_opts(console_opts, group=console_group)


def list_opts() -> dict:
    return {console_group: console_opts}
