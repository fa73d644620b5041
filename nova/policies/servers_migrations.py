"""Rules of a server's in-progress migrations (``/servers/{id}/migrations``)."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:servers:migrations:%s"
INDEX = POLICY_ROOT % "index"
SHOW = POLICY_ROOT % "show"
FORCE_COMPLETE = POLICY_ROOT % "force_complete"
DELETE = POLICY_ROOT % "delete"

rules = [
    policy.DocumentedRuleDefault(
        name=FORCE_COMPLETE,
        check_str=base.ADMIN,
        description="Force an in-progress live migration for a given server "
        "to complete",
        operations=[
            {
                "method": "POST",
                "path": "/servers/{server_id}/migrations/{migration_id}"
                "/action (force_complete)",
            }
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=DELETE,
        check_str=base.ADMIN,
        description="Delete(Abort) an in-progress live migration",
        operations=[
            {
                "method": "DELETE",
                "path": "/servers/{server_id}/migrations/{migration_id}",
            }
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=SHOW,
        check_str=base.ADMIN,
        description="Show details for an in-progress live migration for a given server",
        operations=[
            {
                "method": "GET",
                "path": "/servers/{server_id}/migrations/{migration_id}",
            }
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=INDEX,
        check_str=base.ADMIN,
        description="Lists in-progress live migrations for a given server",
        operations=[{"method": "GET", "path": "/servers/{server_id}/migrations"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
