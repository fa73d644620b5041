"""``[neutron]``: how nova reaches the Networking service."""

from oslo_config import cfg

from nova.conf import utils

SERVICE_TYPE = "network"

neutron_group = cfg.OptGroup(
    "neutron",
    title="Networking service options",
    help="How nova reaches Neutron (keystoneauth1 options) and how it plugs ports.",
)

neutron_opts = [
    cfg.StrOpt(
        "ovs_bridge",
        default="br-int",
        help="Open vSwitch integration bridge ports are plugged into when "
        "Neutron does not name one.",
    ),
    cfg.StrOpt(
        "default_floating_pool",
        default="nova",
        help="External network used by floating IP requests that name no pool.",
    ),
    cfg.IntOpt(
        "extension_sync_interval",
        default=600,
        min=0,
        help="Seconds nova caches the list of Neutron API extensions.",
    ),
    cfg.ListOpt(
        "physnets",
        default=[],
        help="Physical networks with NUMA affinity; each needs a "
        "``[neutron_physnet_<name>]`` group.",
    ),
    cfg.IntOpt(
        "http_retries",
        default=3,
        min=0,
        help="Times an idempotent request to Neutron is retried after a "
        "connection error.",
    ),
    cfg.BoolOpt(
        "service_metadata_proxy",
        default=False,
        help="Metadata requests come through Neutron's metadata proxy, "
        "signed with ``metadata_proxy_shared_secret``.",
    ),
    cfg.StrOpt(
        "metadata_proxy_shared_secret",
        default="",
        secret=True,
        help="Secret shared with Neutron's metadata proxy to sign the "
        "instance id of proxied metadata requests.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, neutron_group, SERVICE_TYPE)
    conf.register_opts(neutron_opts, group=neutron_group)


def list_opts() -> dict:
    return {neutron_group: neutron_opts + utils.list_ksa_opts(SERVICE_TYPE)}
