"""Rules of the console auth tokens API."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-console-auth-tokens"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ADMIN,
        description="Show or revoke a console token's connection information.",
        operations=[
            {"method": "GET", "path": "/os-console-auth-tokens/{console_token}"},
            {"method": "DELETE", "path": "/os-console-auth-tokens/{console_token}"},
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
