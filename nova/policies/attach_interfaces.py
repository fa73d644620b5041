"""Rules of a server's interfaces (``/servers/{server_id}/os-interface``)."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-attach-interfaces:%s"
LIST = POLICY_ROOT % "list"
SHOW = POLICY_ROOT % "show"
CREATE = POLICY_ROOT % "create"
DELETE = POLICY_ROOT % "delete"

_PATH = "/servers/{server_id}/os-interface"

rules = [
    policy.DocumentedRuleDefault(
        name=LIST,
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="List port interfaces attached to a server",
        operations=[{"method": "GET", "path": _PATH}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=SHOW,
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="Show details of a port interface attached to a server",
        operations=[{"method": "GET", "path": _PATH + "/{port_id}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=CREATE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Attach an interface to a server",
        operations=[{"method": "POST", "path": _PATH}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=DELETE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Detach an interface from a server",
        operations=[{"method": "DELETE", "path": _PATH + "/{port_id}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
