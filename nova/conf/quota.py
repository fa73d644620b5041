"""``[quota]``: default limits and how usage is counted."""

from oslo_config import cfg

quota_group = cfg.OptGroup(
    "quota",
    title="Quota options",
    help="Default per-project limits (-1 means unlimited) and the quota driver.",
)


def _limit(name: str, default: int, what: str) -> cfg.IntOpt:
    return cfg.IntOpt(
        name,
        default=default,
        min=-1,
        help=f"Default limit of {what} per project. -1 means unlimited.",
    )


quota_opts = [
    _limit("instances", 10, "servers"),
    _limit("cores", 20, "instance cores (vCPUs)"),
    _limit("ram", 51200, "instance RAM in MiB"),
    _limit("metadata_items", 128, "metadata items per server"),
    _limit("injected_files", 5, "files injected per server"),
    _limit(
        "injected_file_content_bytes",
        10240,
        "bytes of content per injected file",
    ),
    _limit("injected_file_path_length", 255, "characters in an injected file path"),
    _limit("key_pairs", 100, "key pairs per user"),
    _limit("server_groups", 10, "server groups"),
    _limit("server_group_members", 10, "servers per server group"),
    cfg.StrOpt(
        "driver",
        default="nova.quota.DbQuotaDriver",
        choices=[
            (
                "nova.quota.DbQuotaDriver",
                "Limits are stored in nova's API database.",
            ),
            ("nova.quota.NoopQuotaDriver", "Quotas are not enforced."),
            (
                "nova.quota.UnifiedLimitsDriver",
                "Limits are read from Keystone's unified limits.",
            ),
        ],
        help="Where quota limits come from.",
    ),
    cfg.BoolOpt(
        "recheck_quota",
        default=True,
        help="Count usage again after creating resources, so that racing "
        "requests cannot exceed a limit together; the loser is rolled back.",
    ),
    cfg.BoolOpt(
        "count_usage_from_placement",
        default=False,
        help="Count cores and RAM usage from Placement allocations instead "
        "of the cell databases.",
    ),
    cfg.StrOpt(
        "unified_limits_resource_strategy",
        default="require",
        choices=[
            (
                "require",
                "Resources in the list must have a registered limit.",
            ),
            (
                "ignore",
                "Resources in the list need no registered limit.",
            ),
        ],
        help="How ``unified_limits_resource_list`` is read by the unified "
        "limits driver.",
    ),
    cfg.ListOpt(
        "unified_limits_resource_list",
        default=["servers"],
        help="Resources the unified limits strategy applies to.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(quota_group)
    conf.register_opts(quota_opts, group=quota_group)


def list_opts() -> dict:
    return {quota_group: quota_opts}
