"""Rules of the ``addFixedIp`` / ``removeFixedIp`` server actions (up to
2.43)."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-multinic:%s"
ADD = BASE_POLICY_NAME % "add"
REMOVE = BASE_POLICY_NAME % "remove"

rules = [
    policy.DocumentedRuleDefault(
        name=ADD,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Add a fixed IP address to a server. This API is deprecated.",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (addFixedIp)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=REMOVE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Remove a fixed IP address from a server. This API is deprecated.",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (removeFixedIp)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
