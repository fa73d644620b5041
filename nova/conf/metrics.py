"""``[metrics]``: the weigher based on compute monitor metrics."""

from oslo_config import cfg

metrics_group = cfg.OptGroup(
    "metrics",
    title="Metrics weigher options",
    help="How the metrics weigher turns host metrics into a weight.",
)

metrics_opts = [
    cfg.FloatOpt(
        "weight_multiplier",
        default=1.0,
        help="Multiplier of the metrics weight. Negative reverses it, 0 "
        "ignores metrics.",
    ),
    cfg.ListOpt(
        "weight_setting",
        default=[],
        help="Metrics to weigh and their ratios, as ``name=ratio`` pairs, "
        "e.g. ``cpu.frequency=1.0``.",
    ),
    cfg.BoolOpt(
        "required",
        default=True,
        help="Fail the weighing of a host lacking a configured metric; when "
        "false such a host gets ``weight_of_unavailable``.",
    ),
    cfg.FloatOpt(
        "weight_of_unavailable",
        default=-10000.0,
        help="Weight of a host whose configured metrics are unavailable.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(metrics_group)
    conf.register_opts(metrics_opts, group=metrics_group)


def list_opts() -> dict:
    return {metrics_group: metrics_opts}
