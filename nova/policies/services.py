"""Rules of the os-services API."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-services:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME % "list",
        check_str=base.ADMIN,
        description="List all running Compute services in a region.",
        operations=[{"method": "GET", "path": "/os-services"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
