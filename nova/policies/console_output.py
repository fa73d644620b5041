"""Rule of the console output server action."""

from oslo_policy import policy

from nova.policies import base

RULE = "os_compute_api:os-console-output"

rules = [
    policy.DocumentedRuleDefault(
        name=RULE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Show console output for a server",
        operations=[
            {
                "method": "POST",
                "path": "/servers/{server_id}/action (os-getConsoleOutput)",
            }
        ],
        scope_types=base.PROJECT_SCOPE,
    )
]


def list_rules():
    return rules
