"""Rules of the os-availability-zone API."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-availability-zone:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME % "list",
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="List availability zone information without host information",
        operations=[{"method": "GET", "path": "/os-availability-zone"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME % "detail",
        check_str=base.ADMIN,
        description="List detailed availability zone information with host information",
        operations=[{"method": "GET", "path": "/os-availability-zone/detail"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
