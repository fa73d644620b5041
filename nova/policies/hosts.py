"""Rules of the os-hosts API (admin only; the API ends at 2.42)."""

from nova.policies import base
from nova.policies.documented import rule

POLICY_NAME = "os_compute_api:os-hosts:%s"

rules = [
    rule(
        POLICY_NAME % "list",
        base.ADMIN,
        "List physical hosts. This API is deprecated in favor of "
        "os-hypervisors and os-services.",
        [("GET", "/os-hosts")],
    ),
    rule(
        POLICY_NAME % "show",
        base.ADMIN,
        "Show physical host. This API is deprecated in favor of "
        "os-hypervisors and os-services.",
        [("GET", "/os-hosts/{host_name}")],
    ),
    rule(
        POLICY_NAME % "update",
        base.ADMIN,
        "Update physical host. This API is deprecated in favor of "
        "os-hypervisors and os-services.",
        [("PUT", "/os-hosts/{host_name}")],
    ),
    rule(
        POLICY_NAME % "reboot",
        base.ADMIN,
        "Reboot physical host. This API is deprecated in favor of "
        "os-hypervisors and os-services.",
        [("GET", "/os-hosts/{host_name}/reboot")],
    ),
    rule(
        POLICY_NAME % "shutdown",
        base.ADMIN,
        "Shutdown physical host. This API is deprecated in favor of "
        "os-hypervisors and os-services.",
        [("GET", "/os-hosts/{host_name}/shutdown")],
    ),
    rule(
        POLICY_NAME % "start",
        base.ADMIN,
        "Start physical host. This API is deprecated in favor of "
        "os-hypervisors and os-services.",
        [("GET", "/os-hosts/{host_name}/startup")],
    ),
]


def list_rules():
    return rules
