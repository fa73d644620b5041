"""``[vnc]``: VNC consoles and the noVNC proxy."""

from oslo_config import cfg

vnc_group = cfg.OptGroup(
    "vnc",
    title="VNC options",
    help="Graphical consoles over VNC, reached through nova-novncproxy.",
)

vnc_opts = [
    cfg.BoolOpt(
        "enabled",
        default=True,
        deprecated_name="vnc_enabled",
        deprecated_group="DEFAULT",
        help="Give instances a VNC console.",
    ),
    cfg.HostAddressOpt(
        "server_listen",
        default="127.0.0.1",
        deprecated_name="vncserver_listen",
        deprecated_group="DEFAULT",
        help="Address the instances' VNC servers listen on, on the compute host.",
    ),
    cfg.HostAddressOpt(
        "server_proxyclient_address",
        default="127.0.0.1",
        deprecated_name="vncserver_proxyclient_address",
        deprecated_group="DEFAULT",
        help="Address of the compute host that the proxy connects to for VNC.",
    ),
    cfg.URIOpt(
        "novncproxy_base_url",
        default="http://127.0.0.1:6080/vnc_auto.html",
        deprecated_group="DEFAULT",
        help="Public URL of the noVNC page that console URLs given to users "
        "start with.",
    ),
    cfg.HostAddressOpt(
        "novncproxy_host",
        default="0.0.0.0",
        deprecated_group="DEFAULT",
        help="Address nova-novncproxy listens on.",
    ),
    cfg.PortOpt(
        "novncproxy_port",
        default=6080,
        deprecated_group="DEFAULT",
        help="Port nova-novncproxy listens on.",
    ),
    cfg.ListOpt(
        "auth_schemes",
        item_type=cfg.types.String(choices=["none", "vencrypt"]),
        default=["none"],
        help="Authentication schemes the proxy may use towards the compute "
        "host's VNC server, in order of preference.",
    ),
    cfg.StrOpt(
        "vencrypt_client_key",
        help="Private key of the proxy's client certificate for VeNCrypt.",
    ),
    cfg.StrOpt(
        "vencrypt_client_cert",
        help="Client certificate of the proxy for VeNCrypt.",
    ),
    cfg.StrOpt(
        "vencrypt_ca_certs",
        help="CA bundle used to verify the compute hosts' VeNCrypt certificates.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(vnc_group)
    conf.register_opts(vnc_opts, group=vnc_group)


def list_opts() -> dict:
    return {vnc_group: vnc_opts}
