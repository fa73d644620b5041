"""Rules of flavor creation, update and deletion."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-flavor-manage:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "create",
        check_str=base.ADMIN,
        description="Create a flavor",
        operations=[{"method": "POST", "path": "/flavors"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "update",
        check_str=base.ADMIN,
        description="Update a flavor",
        operations=[{"method": "PUT", "path": "/flavors/{flavor_id}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "delete",
        check_str=base.ADMIN,
        description="Delete a flavor",
        operations=[{"method": "DELETE", "path": "/flavors/{flavor_id}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
