"""Rules of floating IPs: the ``os-floating-ips`` proxy (up to 2.35) and
the ``addFloatingIp`` / ``removeFloatingIp`` server actions (up to 2.43)."""

from nova.policies import base

POLICY_NAME = "os_compute_api:os-floating-ips:%s"
ADD = POLICY_NAME % "add"
REMOVE = POLICY_NAME % "remove"
LIST = POLICY_NAME % "list"
CREATE = POLICY_NAME % "create"
SHOW = POLICY_NAME % "show"
DELETE = POLICY_NAME % "delete"


rules = [
    base.project_rule(
        ADD,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Associate floating IPs to server. This API is deprecated.",
        "POST",
        "/servers/{server_id}/action (addFloatingIp)",
    ),
    base.project_rule(
        REMOVE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Disassociate floating IPs to server. This API is deprecated.",
        "POST",
        "/servers/{server_id}/action (removeFloatingIp)",
    ),
    base.project_rule(
        LIST,
        base.PROJECT_READER_OR_ADMIN,
        "List floating IPs. This API is deprecated.",
        "GET",
        "/os-floating-ips",
    ),
    base.project_rule(
        CREATE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create floating IPs. This API is deprecated.",
        "POST",
        "/os-floating-ips",
    ),
    base.project_rule(
        SHOW,
        base.PROJECT_READER_OR_ADMIN,
        "Show floating IPs. This API is deprecated.",
        "GET",
        "/os-floating-ips/{floating_ip_id}",
    ),
    base.project_rule(
        DELETE,
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete floating IPs. This API is deprecated.",
        "DELETE",
        "/os-floating-ips/{floating_ip_id}",
    ),
]


def list_rules():
    return rules
