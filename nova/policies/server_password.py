"""Rules of the server password API."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-server-password:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME % "show",
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="Show the encrypted administrative password of a server.",
        operations=[
            {"method": "GET", "path": "/servers/{server_id}/os-server-password"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME % "clear",
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Clear the encrypted administrative password of a server.",
        operations=[
            {"method": "DELETE", "path": "/servers/{server_id}/os-server-password"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
