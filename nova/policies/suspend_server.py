"""Rules of the suspend and resume server actions."""

from oslo_policy import policy

from nova.policies import base

SUSPEND = "os_compute_api:os-suspend-server:suspend"
RESUME = "os_compute_api:os-suspend-server:resume"

rules = [
    policy.DocumentedRuleDefault(
        name=SUSPEND,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Suspend server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (suspend)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=RESUME,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Resume suspended server",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (resume)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
