"""``[spice]``: SPICE consoles and the HTML5 proxy."""

from oslo_config import cfg

spice_group = cfg.OptGroup(
    "spice",
    title="SPICE options",
    help="Graphical consoles over SPICE, reached through nova-spicehtml5proxy.",
)

spice_opts = [
    cfg.BoolOpt(
        "enabled",
        default=False,
        help="Give instances a SPICE console.",
    ),
    cfg.BoolOpt(
        "agent_enabled",
        default=True,
        help="Enable the SPICE guest agent channel.",
    ),
    cfg.URIOpt(
        "html5proxy_base_url",
        default="http://127.0.0.1:6082/spice_auto.html",
        help="Public URL of the SPICE HTML5 client page that console URLs start with.",
    ),
    cfg.HostAddressOpt(
        "server_listen",
        default="127.0.0.1",
        help="Address the instances' SPICE servers listen on.",
    ),
    cfg.HostAddressOpt(
        "server_proxyclient_address",
        default="127.0.0.1",
        help="Address of the compute host that the proxy connects to for SPICE.",
    ),
    cfg.HostAddressOpt(
        "html5proxy_host",
        default="0.0.0.0",
        help="Address nova-spicehtml5proxy listens on.",
    ),
    cfg.PortOpt(
        "html5proxy_port",
        default=6082,
        help="Port nova-spicehtml5proxy listens on.",
    ),
    cfg.BoolOpt(
        "require_secure",
        default=False,
        help="Only allow TLS-protected SPICE channels: libvirt guests get "
        "SPICE graphics whose channels are all secure (``defaultMode="
        "secure``), which needs ``spice_tls`` and its certificates in "
        "libvirt's qemu.conf on every compute host. Meant for spice-direct "
        "consoles, whose clients talk SPICE to the hypervisor.",
    ),
    cfg.URIOpt(
        "spice_direct_proxy_base_url",
        default="http://127.0.0.1:13002/nova",
        help="Public URL of the native SPICE protocol proxy that spice-direct "
        "console URLs (microversion 2.99) start with; that proxy looks the "
        "token up with ``GET /os-console-auth-tokens/{token}``.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(spice_group)
    conf.register_opts(spice_opts, group=spice_group)


def list_opts() -> dict:
    return {spice_group: spice_opts}
