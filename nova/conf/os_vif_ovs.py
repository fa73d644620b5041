"""``[os_vif_ovs]``: how the libvirt driver reaches the Open vSwitch its
VIFs are plugged into (upstream's os-vif OVS plugin options)."""

from oslo_config import cfg

os_vif_ovs_group = cfg.OptGroup(
    "os_vif_ovs",
    title="Open vSwitch VIF plugging",
    help="The Open vSwitch database the libvirt driver adds guests' taps to.",
)

ALL_OPTS = [
    cfg.StrOpt(
        "ovsdb_connection",
        default="tcp:127.0.0.1:6640",
        help="The OVSDB server, as ``ovs-vsctl --db`` takes it: "
        "``tcp:IP:PORT`` or ``unix:/path/to/db.sock``.",
        # Masked in option dumps, as every *connection option is here.
        secret=True,
    ),
    cfg.IntOpt(
        "ovs_vsctl_timeout",
        default=120,
        min=1,
        help="Seconds an ``ovs-vsctl`` command may wait for the switch.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(os_vif_ovs_group)
    conf.register_opts(ALL_OPTS, group=os_vif_ovs_group)


def list_opts() -> dict:
    return {os_vif_ovs_group: ALL_OPTS}
