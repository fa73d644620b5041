"""Rule of the createBackup server action."""

from oslo_policy import policy

from nova.policies import base

RULE = "os_compute_api:os-create-backup"

rules = [
    policy.DocumentedRuleDefault(
        name=RULE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Create a back up of a server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (createBackup)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    )
]


def list_rules():
    return rules
