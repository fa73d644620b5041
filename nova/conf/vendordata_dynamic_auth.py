"""``[vendordata_dynamic_auth]``: credentials for dynamic vendor data.

The metadata API authenticates with these keystoneauth1 options when it
calls the services in ``[api] vendordata_dynamic_targets``.
"""

from oslo_config import cfg

from nova.conf import utils

vendordata_dynamic_auth_group = cfg.OptGroup(
    "vendordata_dynamic_auth",
    title="Dynamic vendor data credentials",
    help="Credentials used to call dynamic vendor data services "
    "(keystoneauth1 session and auth options).",
)


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, vendordata_dynamic_auth_group)


def list_opts() -> dict:
    return {vendordata_dynamic_auth_group: utils.list_ksa_opts()}
