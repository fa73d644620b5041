"""Rule of ``/extensions``: anyone authenticated."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:extensions"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ANY_AUTHENTICATED,
        description="List available extensions and show information for an "
        "extension by alias",
        operations=[
            {"method": "GET", "path": "/extensions"},
            {"method": "GET", "path": "/extensions/{alias}"},
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
