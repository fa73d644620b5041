"""``[conductor]``: nova-conductor."""

from oslo_config import cfg

conductor_group = cfg.OptGroup(
    "conductor", title="Conductor options", help="Options of nova-conductor."
)

conductor_opts = [
    cfg.IntOpt(
        "workers",
        min=1,
        help="Number of nova-conductor worker processes; the number of CPUs "
        "when unset.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(conductor_group)
    conf.register_opts(conductor_opts, group=conductor_group)


def list_opts() -> dict:
    return {conductor_group: conductor_opts}
