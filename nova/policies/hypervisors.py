"""Rules of the os-hypervisors API (admin only)."""

from nova.policies import base
from nova.policies.documented import rule

BASE_POLICY_NAME = "os_compute_api:os-hypervisors:%s"

rules = [
    rule(
        BASE_POLICY_NAME % "list",
        base.ADMIN,
        "List all hypervisors.",
        [("GET", "/os-hypervisors")],
    ),
    rule(
        BASE_POLICY_NAME % "list-detail",
        base.ADMIN,
        "List all hypervisors with details",
        [("GET", "/os-hypervisors/detail")],
    ),
    rule(
        BASE_POLICY_NAME % "statistics",
        base.ADMIN,
        "Show summary statistics for all hypervisors over all compute nodes.",
        [("GET", "/os-hypervisors/statistics")],
    ),
    rule(
        BASE_POLICY_NAME % "show",
        base.ADMIN,
        "Show details for a hypervisor.",
        [("GET", "/os-hypervisors/{hypervisor_id}")],
    ),
    rule(
        BASE_POLICY_NAME % "uptime",
        base.ADMIN,
        "Show the uptime of a hypervisor.",
        [("GET", "/os-hypervisors/{hypervisor_id}/uptime")],
    ),
    rule(
        BASE_POLICY_NAME % "search",
        base.ADMIN,
        "Search hypervisor by hypervisor_hostname pattern.",
        [("GET", "/os-hypervisors/{hypervisor_hostname_pattern}/search")],
    ),
    rule(
        BASE_POLICY_NAME % "servers",
        base.ADMIN,
        "List all servers on hypervisors that can match the provided "
        "hypervisor_hostname_pattern.",
        [("GET", "/os-hypervisors/{hypervisor_hostname_pattern}/servers")],
    ),
]


def list_rules():
    return rules
