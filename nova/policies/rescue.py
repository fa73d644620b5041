"""Rules of the rescue and unrescue server actions."""

from oslo_policy import policy

from nova.policies import base

RESCUE = "os_compute_api:os-rescue"
UNRESCUE = "os_compute_api:os-unrescue"

rules = [
    policy.DocumentedRuleDefault(
        name=RESCUE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Rescue a server",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (rescue)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=UNRESCUE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Unrescue a server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (unrescue)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
