"""``[filter_scheduler]``: the filters and weighers of nova-scheduler."""

from oslo_config import cfg

filter_scheduler_group = cfg.OptGroup(
    "filter_scheduler",
    title="Filter scheduler options",
    help="Which filters and weighers rank the hosts Placement returned.",
)

# The CPU architectures nova knows, as named in the hw_architecture image
# property.
ARCHITECTURES = (
    "alpha",
    "armv6",
    "armv7l",
    "armv7b",
    "aarch64",
    "cris",
    "i686",
    "ia64",
    "lm32",
    "m68k",
    "microblaze",
    "microblazeel",
    "mips",
    "mipsel",
    "mips64",
    "mips64el",
    "openrisc",
    "parisc",
    "parisc64",
    "ppc",
    "ppcle",
    "ppc64",
    "ppc64le",
    "ppcemb",
    "s390",
    "s390x",
    "sh4",
    "sh4eb",
    "sparc",
    "sparc64",
    "unicore32",
    "x86_64",
    "xtensa",
    "xtensaeb",
)

filter_opts = [
    cfg.IntOpt(
        "host_subset_size",
        default=1,
        min=1,
        help="Pick the host at random among this many best-weighed hosts. "
        "More than 1 lowers the chance that parallel schedulers choose the "
        "same host, at the cost of less optimal choices.",
    ),
    cfg.IntOpt(
        "max_io_ops_per_host",
        default=8,
        min=0,
        help="Most instances in an I/O-heavy task state (building, resizing, "
        "snapshotting, migrating, rescuing, unshelving) a host may have "
        "before IoOpsFilter rejects it.",
    ),
    cfg.IntOpt(
        "max_instances_per_host",
        default=50,
        min=1,
        help="Most instances a host may hold before NumInstancesFilter rejects it.",
    ),
    cfg.BoolOpt(
        "track_instance_changes",
        default=True,
        help="Have compute hosts tell the scheduler about their instances, "
        "so that affinity filters need not query the database. Cannot work "
        "when the cells' message queues are separate from the scheduler's.",
    ),
    cfg.MultiStrOpt(
        "available_filters",
        default=["nova.scheduler.filters.all_filters"],
        help="Filter classes that may be enabled; "
        "``nova.scheduler.filters.all_filters`` stands for every filter "
        "nova ships. Repeat the option to add more.",
    ),
    cfg.ListOpt(
        "enabled_filters",
        default=[
            "ComputeFilter",
            "ComputeCapabilitiesFilter",
            "ImagePropertiesFilter",
            "ServerGroupAntiAffinityFilter",
            "ServerGroupAffinityFilter",
        ],
        help="Filters applied, in this order, to the hosts Placement "
        "returned. Each must be among ``available_filters``.",
    ),
    cfg.ListOpt(
        "weight_classes",
        default=["nova.scheduler.weights.all_weighers"],
        help="Weigher classes used to rank the hosts that passed the "
        "filters; ``nova.scheduler.weights.all_weighers`` stands for all.",
    ),
    cfg.BoolOpt(
        "shuffle_best_same_weighed_hosts",
        default=False,
        help="Choose at random among hosts sharing the best weight, which "
        "spreads instances over many identical hosts (e.g. baremetal).",
    ),
    cfg.StrOpt(
        "image_properties_default_architecture",
        choices=ARCHITECTURES,
        help="Architecture ImagePropertiesFilter assumes for images without "
        "``hw_architecture``.",
    ),
    cfg.ListOpt(
        "isolated_images",
        default=[],
        help="UUIDs of images that may only run on ``isolated_hosts`` "
        "(IsolatedHostsFilter).",
    ),
    cfg.ListOpt(
        "isolated_hosts",
        default=[],
        help="Hosts reserved for ``isolated_images`` (IsolatedHostsFilter).",
    ),
    cfg.BoolOpt(
        "restrict_isolated_hosts_to_isolated_images",
        default=True,
        help="Keep other images off ``isolated_hosts``.",
    ),
    cfg.StrOpt(
        "aggregate_image_properties_isolation_namespace",
        help="Prefix of the aggregate metadata keys that "
        "AggregateImagePropertiesIsolation matches against image "
        "properties.",
    ),
    cfg.StrOpt(
        "aggregate_image_properties_isolation_separator",
        default=".",
        help="Separator between that prefix and the property name.",
    ),
    cfg.BoolOpt(
        "pci_in_placement",
        default=False,
        help="Schedule and claim PCI devices through Placement. Enable only "
        "after ``[pci] report_in_placement`` is on everywhere.",
    ),
]

weigher_opts = [
    cfg.FloatOpt(
        "ram_weight_multiplier",
        default=1.0,
        help="Weight of free RAM. Positive spreads instances, negative stacks them.",
    ),
    cfg.FloatOpt(
        "cpu_weight_multiplier",
        default=1.0,
        help="Weight of free vCPUs. Positive spreads, negative stacks.",
    ),
    cfg.FloatOpt(
        "disk_weight_multiplier",
        default=1.0,
        help="Weight of free disk. Positive spreads, negative stacks.",
    ),
    cfg.FloatOpt(
        "io_ops_weight_multiplier",
        default=-1.0,
        help="Weight of the number of I/O-heavy tasks. Negative prefers quieter hosts.",
    ),
    cfg.FloatOpt(
        "pci_weight_multiplier",
        default=1.0,
        min=0.0,
        help="Weight keeping hosts with PCI devices for instances that need them.",
    ),
    cfg.FloatOpt(
        "soft_affinity_weight_multiplier",
        default=1.0,
        min=0.0,
        help="Weight of soft-affinity server group members on a host.",
    ),
    cfg.FloatOpt(
        "soft_anti_affinity_weight_multiplier",
        default=1.0,
        min=0.0,
        help="Weight of soft-anti-affinity server group members on a host.",
    ),
    cfg.FloatOpt(
        "build_failure_weight_multiplier",
        default=1000000.0,
        help="Weight against hosts with recent build failures. Keep it large "
        "to outweigh the other weighers; 0 disables it.",
    ),
    cfg.FloatOpt(
        "cross_cell_move_weight_multiplier",
        default=1000000.0,
        help="Weight for hosts in the instance's current cell during a move. "
        "Negative prefers other cells.",
    ),
    cfg.FloatOpt(
        "hypervisor_version_weight_multiplier",
        default=1.0,
        help="Weight of the hypervisor version. Positive prefers newer "
        "hosts, negative older ones.",
    ),
    cfg.FloatOpt(
        "num_instances_weight_multiplier",
        default=0.0,
        help="Weight of the number of instances on a host. Positive packs, "
        "negative spreads, 0 disables it.",
    ),
    cfg.FloatOpt(
        "image_props_weight_multiplier",
        default=0.0,
        help="Weight of instances on a host sharing the requested image's "
        "properties. Positive packs, negative spreads, 0 disables it.",
    ),
    cfg.ListOpt(
        "image_props_weight_setting",
        default=[],
        help="Image properties the image properties weigher compares, as "
        "``name=ratio`` pairs. Empty compares all, evenly.",
    ),
]

ALL_OPTS = filter_opts + weigher_opts


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(filter_scheduler_group)
    conf.register_opts(ALL_OPTS, group=filter_scheduler_group)


def list_opts() -> dict:
    return {filter_scheduler_group: ALL_OPTS}
