"""``[placement]``: how nova reaches the Placement service."""

from oslo_config import cfg

from nova.conf import utils

SERVICE_TYPE = "placement"

placement_group = cfg.OptGroup(
    "placement",
    title="Placement service options",
    help="Credentials and endpoint selection for the Placement API "
    "(keystoneauth1 options).",
)


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, placement_group, SERVICE_TYPE)


def list_opts() -> dict:
    return {placement_group: utils.list_ksa_opts(SERVICE_TYPE)}
