"""Rule of the evacuate server action."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-evacuate"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ADMIN,
        description="Evacuate a server from a failed host to a new host",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (evacuate)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
