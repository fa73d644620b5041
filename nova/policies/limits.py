"""Rules of ``/limits``: everyone sees their own, admins another project's."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:limits"
OTHER_PROJECT_LIMIT_POLICY_NAME = "os_compute_api:limits:other_project"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ANY_AUTHENTICATED,
        description="Show rate and absolute limits for the current user project",
        operations=[{"method": "GET", "path": "/limits"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=OTHER_PROJECT_LIMIT_POLICY_NAME,
        check_str=base.ADMIN,
        description="Show rate and absolute limits of another project "
        "(the tenant_id query parameter)",
        operations=[{"method": "GET", "path": "/limits"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
