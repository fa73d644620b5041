"""Rules of the pause and unpause server actions."""

from oslo_policy import policy

from nova.policies import base

PAUSE = "os_compute_api:os-pause-server:pause"
UNPAUSE = "os_compute_api:os-pause-server:unpause"

rules = [
    policy.DocumentedRuleDefault(
        name=PAUSE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Pause a server",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (pause)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=UNPAUSE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Unpause a paused server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (unpause)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
