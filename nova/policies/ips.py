"""Rules of the server IPs API (``/servers/{server_id}/ips``)."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:ips:%s"

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "show",
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="Show IP addresses details for a network label of a server",
        operations=[
            {"method": "GET", "path": "/servers/{server_id}/ips/{network_label}"}
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % "index",
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="List IP addresses that are assigned to a server",
        operations=[{"method": "GET", "path": "/servers/{server_id}/ips"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
