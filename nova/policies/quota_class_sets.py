"""Rules of ``/os-quota-class-sets``: admins only."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-quota-class-sets:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "show",
        check_str=base.ADMIN,
        description="List quotas for specific quota classs",
        operations=[{"method": "GET", "path": "/os-quota-class-sets/{quota_class}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "update",
        check_str=base.ADMIN,
        description="Update quotas for specific quota class",
        operations=[{"method": "PUT", "path": "/os-quota-class-sets/{quota_class}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
