"""Rules of the os-server-groups API: project members manage their
groups, readers see them, the admin sees every project's."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-server-groups:%s"

_ACTIONS = [
    ("create", base.PROJECT_MEMBER, "Create a new server group", "POST",
     "/os-server-groups"),
    ("delete", base.PROJECT_MEMBER_OR_ADMIN, "Delete a server group", "DELETE",
     "/os-server-groups/{server_group_id}"),
    ("index", base.PROJECT_READER_OR_ADMIN,
     "List all server groups", "GET", "/os-server-groups"),
    ("index:all_projects", base.ADMIN,
     "List all server groups for all projects", "GET", "/os-server-groups"),
    ("show", base.PROJECT_READER_OR_ADMIN, "Show details of a server group",
     "GET", "/os-server-groups/{server_group_id}"),
]  # fmt: skip

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % action,
        check_str=check_str,
        description=description,
        operations=[{"method": method, "path": path}],
        scope_types=base.PROJECT_SCOPE,
    )
    for action, check_str, description, method, path in _ACTIONS
]


def list_rules():
    return rules
