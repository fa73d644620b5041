"""Who sees a flavor's extra specs."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-flavor-extra-specs:%s"


def _manage(name: str, description: str, method: str, path: str):
    return policy.DocumentedRuleDefault(
        name=POLICY_ROOT % name,
        check_str=base.ADMIN,
        description=description,
        operations=[{"method": method, "path": path}],
        scope_types=base.PROJECT_SCOPE,
    )


rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "show",
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="Show an extra spec for a flavor",
        operations=[
            {
                "method": "GET",
                "path": "/flavors/{flavor_id}/os-extra_specs/{flavor_extra_spec_key}",
            }
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    _manage(
        "create",
        "Create extra specs for a flavor",
        "POST",
        "/flavors/{flavor_id}/os-extra_specs/",
    ),
    _manage(
        "update",
        "Update an extra spec for a flavor",
        "PUT",
        "/flavors/{flavor_id}/os-extra_specs/{flavor_extra_spec_key}",
    ),
    _manage(
        "delete",
        "Delete an extra spec for a flavor",
        "DELETE",
        "/flavors/{flavor_id}/os-extra_specs/{flavor_extra_spec_key}",
    ),
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
