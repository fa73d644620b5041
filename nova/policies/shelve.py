"""Rules of the shelve, shelveOffload and unshelve server actions."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-shelve:%s"
SHELVE = POLICY_ROOT % "shelve"
SHELVE_OFFLOAD = POLICY_ROOT % "shelve_offload"
UNSHELVE = POLICY_ROOT % "unshelve"
UNSHELVE_TO_HOST = POLICY_ROOT % "unshelve_to_host"

rules = [
    policy.DocumentedRuleDefault(
        name=SHELVE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Shelve server",
        operations=[{"method": "POST", "path": "/servers/{server_id}/action (shelve)"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=SHELVE_OFFLOAD,
        check_str=base.ADMIN,
        description="Shelf-offload (remove) server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (shelveOffload)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=UNSHELVE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Unshelve (restore) shelved server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (unshelve)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=UNSHELVE_TO_HOST,
        check_str=base.ADMIN,
        description="Unshelve (restore) a shelve-offloaded server to a given host",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (unshelve)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
