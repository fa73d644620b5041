"""Rules of the migrate (cold migration) server action."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-migrate-server:%s"
MIGRATE = POLICY_ROOT % "migrate"
MIGRATE_HOST = POLICY_ROOT % "migrate:host"

rules = [
    policy.DocumentedRuleDefault(
        name=MIGRATE,
        check_str=base.ADMIN,
        description="Cold migrate a server without specifying a host",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (migrate)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=MIGRATE_HOST,
        check_str=base.ADMIN,
        description="Cold migrate a server to a specified host",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (migrate)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
