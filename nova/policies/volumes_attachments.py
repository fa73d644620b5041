"""Rules of a server's volume attachments
(``/servers/{server_id}/os-volume_attachments``)."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-volumes-attachments:%s"
INDEX = POLICY_ROOT % "index"
SHOW = POLICY_ROOT % "show"
CREATE = POLICY_ROOT % "create"
DELETE = POLICY_ROOT % "delete"

_PATH = "/servers/{server_id}/os-volume_attachments"

rules = [
    policy.DocumentedRuleDefault(
        name=INDEX,
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="List volume attachments for an instance",
        operations=[{"method": "GET", "path": _PATH}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=SHOW,
        check_str=base.PROJECT_READER_OR_ADMIN,
        description="Show details of a volume attachment",
        operations=[{"method": "GET", "path": _PATH + "/{volume_id}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=CREATE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Attach a volume to an instance",
        operations=[{"method": "POST", "path": _PATH}],
        scope_types=base.PROJECT_SCOPE,
    ),
    policy.DocumentedRuleDefault(
        name=DELETE,
        check_str=base.PROJECT_MEMBER_OR_ADMIN,
        description="Detach a volume from an instance",
        operations=[{"method": "DELETE", "path": _PATH + "/{volume_id}"}],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
