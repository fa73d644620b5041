"""``[scheduler]``: how nova-scheduler queries Placement and runs."""

from oslo_config import cfg

scheduler_group = cfg.OptGroup(
    "scheduler", title="Scheduler options", help="Options of nova-scheduler."
)

scheduler_opts = [
    cfg.IntOpt(
        "max_attempts",
        default=3,
        min=1,
        help="Hosts tried for one build or move: the chosen host plus "
        "alternates to fall back on. When all fail the instance goes to "
        "ERROR.",
    ),
    cfg.IntOpt(
        "discover_hosts_in_cells_interval",
        default=-1,
        min=-1,
        help="Seconds between two searches of the cell databases for compute "
        "hosts not yet mapped to a cell. -1 disables it; then run "
        "``nova-manage cell_v2 discover_hosts`` after adding computes.",
    ),
    cfg.IntOpt(
        "max_placement_results",
        default=1000,
        min=1,
        help="Most allocation candidates asked from Placement per request, "
        "and so the most hosts the filters and weighers see.",
    ),
    cfg.IntOpt(
        "workers",
        min=0,
        help="Number of nova-scheduler worker processes; the number of CPUs "
        "when unset.",
    ),
    cfg.BoolOpt(
        "query_placement_for_routed_network_aggregates",
        default=False,
        help="Restrict hosts to those in the aggregates of the routed "
        "network segments of the requested networks.",
    ),
    cfg.BoolOpt(
        "limit_tenants_to_placement_aggregate",
        default=False,
        help="Restrict a project to the aggregates whose metadata holds a "
        "``filter_tenant_id`` key with its id.",
    ),
    cfg.BoolOpt(
        "placement_aggregate_required_for_tenants",
        default=False,
        help="With limit_tenants_to_placement_aggregate, a project that no "
        "aggregate names gets no host at all instead of any host.",
    ),
    cfg.BoolOpt(
        "query_placement_for_availability_zone",
        default=True,
        deprecated_for_removal=True,
        deprecated_since="24.0.0",
        deprecated_reason="Availability zones are always looked up in Placement.",
        help="Ask Placement for hosts of the requested availability zone.",
    ),
    cfg.BoolOpt(
        "query_placement_for_image_type_support",
        default=False,
        help="Ask Placement only for hosts that support the disk format of "
        "the requested image.",
    ),
    cfg.BoolOpt(
        "enable_isolated_aggregate_filtering",
        default=False,
        help="Keep instances off aggregates that require traits the flavor "
        "and image do not require.",
    ),
    cfg.BoolOpt(
        "image_metadata_prefilter",
        default=False,
        help="Turn well-known image properties into required traits in the "
        "Placement query.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(scheduler_group)
    conf.register_opts(scheduler_opts, group=scheduler_group)


def list_opts() -> dict:
    return {scheduler_group: scheduler_opts}
