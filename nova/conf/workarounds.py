"""``[workarounds]``: switches for known problems in particular deployments.

Each one changes a default behaviour to avoid a specific bug or limitation;
they are meant to be temporary.
"""

from oslo_config import cfg

workarounds_group = cfg.OptGroup(
    "workarounds",
    title="Workaround options",
    help="Switches that turn off or change a behaviour known to cause "
    "trouble in some deployments.",
)

workarounds_opts = [
    cfg.BoolOpt(
        "disable_rootwrap",
        default=False,
        help="Run privileged commands with sudo instead of rootwrap.",
    ),
    cfg.BoolOpt(
        "handle_virt_lifecycle_events",
        default=True,
        help="Update instance power states from the hypervisor's lifecycle "
        "events; the periodic power state sync still runs when off.",
    ),
    cfg.BoolOpt(
        "disable_group_policy_check_upcall",
        default=False,
        help="Skip the compute host's final server group policy check, which "
        "needs the API database.",
    ),
    cfg.BoolOpt(
        "ensure_libvirt_rbd_instance_dir_cleanup",
        default=False,
        help="Remove the instance directory of RBD-backed instances on "
        "shared storage after evacuation or revert.",
    ),
    cfg.BoolOpt(
        "disable_fallback_pcpu_query",
        default=False,
        help="Do not ask Placement a second time with VCPU when a request "
        "for PCPU found nothing.",
    ),
    cfg.BoolOpt(
        "never_download_image_if_on_rbd",
        default=False,
        help="Refuse to boot an image that is not in the host's Ceph "
        "cluster rather than download it.",
    ),
    cfg.BoolOpt(
        "reserve_disk_resource_for_image_cache",
        default=False,
        help="Report the image cache's size as reserved disk in Placement.",
    ),
    cfg.ListOpt(
        "wait_for_vif_plugged_event_during_hard_reboot",
        default=[],
        help="VNIC types for which a hard reboot waits for network-vif-plugged events.",
    ),
    cfg.BoolOpt(
        "disable_compute_service_check_for_ffu",
        default=False,
        help="Skip the check that refuses to start when compute services "
        "older than supported are registered.",
    ),
    cfg.BoolOpt(
        "skip_hypervisor_version_check_on_lm",
        default=False,
        help="Allow live migration to a host with an older hypervisor.",
    ),
    cfg.BoolOpt(
        "skip_cpu_compare_on_dest",
        default=False,
        help="Skip the CPU compatibility check on the live migration destination.",
    ),
    cfg.BoolOpt(
        "skip_cpu_compare_at_startup",
        default=False,
        help="Skip checking at startup that the host CPU supports the "
        "configured CPU models.",
    ),
    cfg.BoolOpt(
        "unified_limits_count_pcpu_as_vcpu",
        default=False,
        help="With unified limits, count PCPU usage against the VCPU limit.",
    ),
    cfg.BoolOpt(
        "libvirt_disable_apic",
        default=False,
        help="Give guests no APIC, for old kernels that crash with one.",
    ),
    cfg.BoolOpt(
        "disable_deep_image_inspection",
        default=False,
        help="Skip the safety checks on the content of downloaded images.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(workarounds_group)
    conf.register_opts(workarounds_opts, group=workarounds_group)


def list_opts() -> dict:
    return {workarounds_group: workarounds_opts}
