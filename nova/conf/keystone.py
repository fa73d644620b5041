"""``[keystone]``: how nova reaches Keystone to check project ids."""

from oslo_config import cfg

from nova.conf import utils

SERVICE_TYPE = "identity"

keystone_group = cfg.OptGroup(
    "keystone",
    title="Identity service options",
    help="Credentials and endpoint selection for the Identity API, used to "
    "check that projects named in requests exist (keystoneauth1 options).",
)


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, keystone_group, SERVICE_TYPE)


def list_opts() -> dict:
    return {keystone_group: utils.list_ksa_opts(SERVICE_TYPE)}
