"""Rules of the administrators' server actions."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-admin-actions:%s"
RESET_STATE = BASE_POLICY_NAME % "reset_state"
INJECT_NETWORK_INFO = BASE_POLICY_NAME % "inject_network_info"

rules = [
    policy.DocumentedRuleDefault(
        name=RESET_STATE,
        check_str=base.ADMIN,
        description="Reset the state of a given server",
        operations=[
            {"method": "POST", "path": "/servers/{server_id}/action (os-resetState)"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=INJECT_NETWORK_INFO,
        check_str=base.ADMIN,
        description="Inject network information into the server",
        operations=[
            {
                "method": "POST",
                "path": "/servers/{server_id}/action (injectNetworkInfo)",
            }
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
