"""``[service_user]``: the service token nova sends along with user tokens."""

from oslo_config import cfg

from nova.conf import utils

service_user_group = cfg.OptGroup(
    "service_user",
    title="Service user options",
    help="Credentials of the service user whose token nova adds to "
    "requests it makes to other services on a user's behalf, so that an "
    "expired user token does not break long operations "
    "(keystoneauth1 options).",
)

service_user_opts = [
    cfg.BoolOpt(
        "send_service_user_token",
        default=False,
        help="Send a service token with every request made on a user's "
        "behalf. Other services may require it (Cinder, Glance, Neutron "
        "can be set up to).",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, service_user_group)
    conf.register_opts(service_user_opts, group=service_user_group)


def list_opts() -> dict:
    return {service_user_group: service_user_opts + utils.list_ksa_opts()}
