"""``[DEFAULT]`` options of the console proxies (nova-novncproxy)."""

from oslo_config import cfg

novnc_opts = [
    cfg.StrOpt(
        "web",
        default="/usr/share/novnc",
        help="Directory of the web client the proxy serves (Debian's novnc "
        "package installs noVNC in /usr/share/novnc).",
    ),
    cfg.BoolOpt(
        "ssl_only",
        default=False,
        help="Refuse connections that are not TLS (needs ``cert``).",
    ),
    cfg.StrOpt("cert", default="self.pem", help="TLS certificate of the proxy."),
    cfg.StrOpt("key", help="TLS private key of the proxy, if not in ``cert``."),
    cfg.BoolOpt(
        "source_is_ipv6",
        default=False,
        help="The proxy listens on IPv6.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(novnc_opts)


def list_opts() -> dict:
    return {"DEFAULT": novnc_opts}
