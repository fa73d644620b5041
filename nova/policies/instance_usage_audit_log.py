"""Rules of the os-instance_usage_audit_log API (admin only)."""

from nova.policies import base
from nova.policies.documented import rule

BASE_POLICY_NAME = "os_compute_api:os-instance-usage-audit-log:%s"

rules = [
    rule(
        BASE_POLICY_NAME % "list",
        base.ADMIN,
        "List all usage audits.",
        [("GET", "/os-instance_usage_audit_log")],
    ),
    rule(
        BASE_POLICY_NAME % "show",
        base.ADMIN,
        "List all usage audits occurred before a specified time for all "
        "servers on all compute hosts where usage auditing is configured",
        [("GET", "/os-instance_usage_audit_log/{before_timestamp}")],
    ),
]


def list_rules():
    return rules
