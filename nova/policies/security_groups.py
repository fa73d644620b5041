"""Rules of the security group proxy (``os-security-groups``,
``os-security-group-rules``, up to 2.35) and of a server's groups."""

from nova.policies import base

POLICY_NAME = "os_compute_api:os-security-groups:%s"
GET = POLICY_NAME % "get"
SHOW = POLICY_NAME % "show"
CREATE = POLICY_NAME % "create"
UPDATE = POLICY_NAME % "update"
DELETE = POLICY_NAME % "delete"
RULE_CREATE = POLICY_NAME % "rule:create"
RULE_DELETE = POLICY_NAME % "rule:delete"
LIST = POLICY_NAME % "list"
ADD = POLICY_NAME % "add"
REMOVE = POLICY_NAME % "remove"


rules = [
    base.project_rule(
        GET,
        base.PROJECT_READER_OR_ADMIN,
        "List security groups. This API is deprecated.",
        "GET",
        "/os-security-groups",
    ),
    base.project_rule(
        SHOW,
        base.PROJECT_READER_OR_ADMIN,
        "Show security group. This API is deprecated.",
        "GET",
        "/os-security-groups/{security_group_id}",
    ),
    base.project_rule(
        CREATE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create security group. This API is deprecated.",
        "POST",
        "/os-security-groups",
    ),
    base.project_rule(
        UPDATE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Update security group. This API is deprecated.",
        "PUT",
        "/os-security-groups/{security_group_id}",
    ),
    base.project_rule(
        DELETE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete security group. This API is deprecated.",
        "DELETE",
        "/os-security-groups/{security_group_id}",
    ),
    base.project_rule(
        RULE_CREATE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create security group Rule. This API is deprecated.",
        "POST",
        "/os-security-group-rules",
    ),
    base.project_rule(
        RULE_DELETE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete security group Rule. This API is deprecated.",
        "DELETE",
        "/os-security-group-rules/{security_group_id}",
    ),
    base.project_rule(
        LIST,
        base.PROJECT_READER_OR_ADMIN,
        "List security groups of server.",
        "GET",
        "/servers/{server_id}/os-security-groups",
    ),
    base.project_rule(
        ADD,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Add security groups to server.",
        "POST",
        "/servers/{server_id}/action (addSecurityGroup)",
    ),
    base.project_rule(
        REMOVE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Remove security groups from server.",
        "POST",
        "/servers/{server_id}/action (removeSecurityGroup)",
    ),
]


def list_rules():
    return rules
