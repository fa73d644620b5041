"""keystoneauth1 option sets shared by the groups that talk to other services.

keystoneauth1 owns these options; nova only picks which sets a group gets and
the defaults (service type, interfaces) that upstream Nova ships with, so an
operator's existing ``[placement]``, ``[glance]``, ``[neutron]`` … sections
keep working unchanged.
"""

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

# Upstream Nova talks to services on their internal endpoint first.
DEFAULT_VALID_INTERFACES = ["internal", "public"]

# The auth plugin whose options the sample documents; "password" covers the
# options of the v3 password plugin as well.
SAMPLE_AUTH_PLUGIN = "password"


def adapter_opts(service_type: str) -> list[cfg.Opt]:
    """keystoneauth1 adapter options with nova's default service type."""
    opts = ks_loading.get_adapter_conf_options(include_deprecated=False)
    cfg.set_defaults(
        opts, service_type=service_type, valid_interfaces=DEFAULT_VALID_INTERFACES
    )
    return opts


def register_ksa_opts(
    conf: cfg.ConfigOpts, group: cfg.OptGroup, service_type: str | None = None
) -> None:
    """Register session and auth options, plus adapter options if a service
    type is given, in ``group``."""
    conf.register_group(group)
    ks_loading.register_session_conf_options(conf, group.name)
    ks_loading.register_auth_conf_options(conf, group.name)
    if service_type is not None:
        conf.register_opts(adapter_opts(service_type), group=group)


def list_ksa_opts(service_type: str | None = None) -> list[cfg.Opt]:
    """The keystoneauth1 options of a group, as the sample should show them:
    session, auth type/section, the password plugin's options and, with a
    service type, the adapter options."""
    opts = (
        ks_loading.get_session_conf_options()
        + ks_loading.get_auth_common_conf_options()
        + ks_loading.get_auth_plugin_conf_options(SAMPLE_AUTH_PLUGIN)
    )
    if service_type is not None:
        opts += adapter_opts(service_type)
    return opts
