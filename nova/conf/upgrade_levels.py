"""``[upgrade_levels]``: RPC version caps for rolling upgrades."""

from oslo_config import cfg

upgrade_levels_group = cfg.OptGroup(
    "upgrade_levels",
    title="RPC version caps",
    help="Caps on the RPC API version sent to each service, so that upgraded "
    "services keep talking to older ones during a rolling upgrade. A value "
    "is a version number (``MAJOR.MINOR``) or, for ``compute``, ``auto``: "
    "the version the oldest running nova-compute of any cell speaks, as its "
    "recorded service version says. Unset sends the newest version. The "
    "options are re-read, and ``auto`` looked up again, when a service gets "
    "SIGHUP.",
)


def _cap(name: str, what: str, **kwargs) -> cfg.StrOpt:
    return cfg.StrOpt(
        name,
        mutable=True,
        help=f"Highest RPC API version used for messages to {what}.",
        **kwargs,
    )


upgrade_levels_opts = [
    _cap("compute", "nova-compute"),
    _cap("scheduler", "nova-scheduler"),
    _cap("conductor", "nova-conductor"),
    _cap("baseapi", "the base API every service serves"),
    _cap(
        "cert",
        "the cert service",
        deprecated_for_removal=True,
        deprecated_reason="The cert service no longer exists.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(upgrade_levels_group)
    conf.register_opts(upgrade_levels_opts, group=upgrade_levels_group)


def list_opts() -> dict:
    return {upgrade_levels_group: upgrade_levels_opts}
