"""Rule of a server's hypervisor diagnostics."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-server-diagnostics"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ADMIN,
        description="Show the usage data for a server",
        operations=[{"method": "GET", "path": "/servers/{server_id}/diagnostics"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
