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
    cfg.IntOpt(
        "orphaned_build_timeout",
        default=600,
        min=0,
        help="Seconds after which a build still waiting for the conductor "
        "(a build request not yet in a cell) or for a host (an instance "
        "BUILDING with no host) is taken as left behind by a conductor or "
        "scheduler that died mid-build. Every conductor looks for them when "
        "it starts and every quarter of this time after: the "
        "superconductor buries such build requests in cell0, a cell's "
        "conductor ends such instances, each in ERROR with a fault saying "
        "why and its Placement claim given back. Longer than any normal "
        "wait in the queues of a busy cloud; 0 disables it.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(conductor_group)
    conf.register_opts(conductor_opts, group=conductor_group)


def list_opts() -> dict:
    return {conductor_group: conductor_opts}
