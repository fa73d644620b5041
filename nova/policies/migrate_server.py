"""Rules of the migrate (cold) and os-migrateLive server actions."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-migrate-server:%s"
MIGRATE = POLICY_ROOT % "migrate"
MIGRATE_HOST = POLICY_ROOT % "migrate:host"
MIGRATE_LIVE = POLICY_ROOT % "migrate_live"

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
    policy.DocumentedRuleDefault(
        name=MIGRATE_LIVE,
        check_str=base.ADMIN,
        description="Live migrate a server to a new host without a reboot",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (os-migrateLive)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
