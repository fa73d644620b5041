"""Rules of the lock and unlock server actions."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-lock-server:%s"
LOCK = BASE_POLICY_NAME % "lock"
UNLOCK = BASE_POLICY_NAME % "unlock"
# Lifting a lock its caller did not set (an admin's, for the owner; the
# owner's, for an admin).
UNLOCK_OVERRIDE = BASE_POLICY_NAME % "unlock:unlock_override"

rules = [
    policy.DocumentedRuleDefault(
        name=LOCK,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Lock a server",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (lock)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=UNLOCK,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Unlock a server",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (unlock)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=UNLOCK_OVERRIDE,
        check_str=base.ADMIN,
        description="Unlock a server, regardless who locked the server.\n\n"
        "This check is performed only after the check "
        "os_compute_api:os-lock-server:unlock passes",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (unlock)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
