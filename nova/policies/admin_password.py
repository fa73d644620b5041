"""Rule of the changePassword server action."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-admin-password"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Change the administrative password for a server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (changePassword)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
