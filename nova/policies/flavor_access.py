"""Who sees private flavors and lists flavors by their ``is_public`` flag."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-flavor-access"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ADMIN,
        description="List flavor access information, and list flavors of "
        "any visibility with the is_public filter.",
        operations=[
            {"method": "GET", "path": "/flavors/{flavor_id}/os-flavor-access"},
            {"method": "GET", "path": "/flavors"},
            {"method": "GET", "path": "/flavors/detail"},
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
