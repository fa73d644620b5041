"""Rules of the restore and forceDelete server actions (soft delete)."""

from oslo_policy import policy

from nova.policies import base

RESTORE = "os_compute_api:os-deferred-delete:restore"
FORCE = "os_compute_api:os-deferred-delete:force"

rules = [
    policy.DocumentedRuleDefault(
        name=RESTORE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Restore a soft deleted server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (restore)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=FORCE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Force delete a server before its deferred delete",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (forceDelete)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
