"""Who sees private flavors and lists flavors by their ``is_public`` flag."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-flavor-access"
POLICY_ROOT = "os_compute_api:os-flavor-access:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "add_tenant_access",
        check_str=base.ADMIN,
        description="Add flavor access to a tenant",
        operations=[{"method": "POST", "path": "/flavors/{flavor_id}/action"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "remove_tenant_access",
        check_str=base.ADMIN,
        description="Remove flavor access from a tenant",
        operations=[{"method": "POST", "path": "/flavors/{flavor_id}/action"}],
        scope_types=base.PROJECT_SCOPE,
    ),
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
