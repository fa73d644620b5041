"""Rules of the remote consoles API."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-remote-consoles"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Generate a URL to a server's remote console.",
        operations=[{"method": "POST", "path": "/servers/{server_id}/remote-consoles"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
