"""Who sees a flavor's extra specs."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-flavor-extra-specs:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "index",
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="List extra specs for a flavor. Starting with "
        "microversion 2.61, extra specs are also returned in the flavor "
        "body of the flavor APIs.",
        operations=[
            {"method": "GET", "path": "/flavors/{flavor_id}/os-extra_specs/"},
            {"method": "GET", "path": "/flavors/detail"},
            {"method": "GET", "path": "/flavors/{flavor_id}"},
            {"method": "POST", "path": "/flavors"},
            {"method": "PUT", "path": "/flavors/{flavor_id}"},
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
