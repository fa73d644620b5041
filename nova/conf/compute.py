"""``[compute]``: options specific to nova-compute."""

from oslo_config import cfg

compute_group = cfg.OptGroup(
    "compute",
    title="Compute service options",
    help="Options specific to nova-compute.",
)

compute_opts = [
    cfg.IntOpt(
        "consecutive_build_service_disable_threshold",
        default=10,
        help="Disable the compute service after this many builds in a row "
        "failed on it. 0 never disables it.",
    ),
    cfg.IntOpt(
        "shutdown_retry_interval",
        default=10,
        min=1,
        help="Seconds between two clean shutdown requests sent to a guest "
        "within ``shutdown_timeout``.",
    ),
    cfg.IntOpt(
        "resource_provider_association_refresh",
        default=300,
        min=0,
        mutable=True,
        help="Seconds the compute host trusts its cached view of its "
        "providers' aggregates and traits in Placement. 0 never refreshes "
        "it.",
    ),
    cfg.StrOpt(
        "cpu_shared_set",
        help="Host CPUs for shared (unpinned) guest vCPUs and emulator "
        "threads, as a range list such as ``4-12,^8,15``.",
    ),
    cfg.StrOpt(
        "cpu_dedicated_set",
        help="Host CPUs reserved for pinned guest vCPUs, as a range list; "
        "reported to Placement as PCPU.",
    ),
    cfg.BoolOpt(
        "live_migration_wait_for_vif_plug",
        default=True,
        help="Wait for Neutron's network-vif-plugged events on the "
        "destination before starting a live migration.",
    ),
    cfg.IntOpt(
        "max_concurrent_disk_ops",
        default=0,
        min=0,
        help="Most disk-heavy operations (image conversions …) run at once. "
        "0 means unlimited.",
    ),
    cfg.IntOpt(
        "max_disk_devices_to_attach",
        default=-1,
        min=-1,
        help="Most disk devices one instance may have attached. -1 means unlimited.",
    ),
    cfg.StrOpt(
        "provider_config_location",
        default="/etc/nova/provider_config/",
        help="Directory of YAML files that add inventory and traits to this "
        "host's resource providers.",
    ),
    cfg.ListOpt(
        "image_type_exclude_list",
        default=[],
        help="Image disk formats this host refuses even though its driver "
        "supports them.",
    ),
    cfg.BoolOpt(
        "packing_host_numa_cells_allocation_strategy",
        default=False,
        help="Fill the most used host NUMA cells first instead of spreading "
        "instances over the least used.",
    ),
    cfg.ListOpt(
        "vmdk_allowed_types",
        default=["streamOptimized", "monolithicSparse"],
        help="VMDK subformats accepted in images.",
    ),
    cfg.IntOpt(
        "sharing_providers_max_uuids_per_request",
        default=200,
        min=1,
        help="Most provider uuids per Placement query when looking for "
        "sharing providers.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(compute_group)
    conf.register_opts(compute_opts, group=compute_group)


def list_opts() -> dict:
    return {compute_group: compute_opts}
