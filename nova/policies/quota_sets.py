"""Rules of ``/os-quota-sets``: projects read their quotas, admins set them."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-quota-sets:%s"


def _rule(name: str, check_str: str, description: str, operations):
    return policy.DocumentedRuleDefault(
        name=POLICY_ROOT % name,
        check_str=check_str,
        description=description,
        operations=[{"method": method, "path": path} for method, path in operations],
        scope_types=base.PROJECT_SCOPE,
    )


rules = [
    _rule(
        "update",
        base.ADMIN,
        "Update the quotas",
        [("PUT", "/os-quota-sets/{tenant_id}")],
    ),
    _rule(
        "defaults",
        base.ANY_AUTHENTICATED,
        "List default quotas",
        [("GET", "/os-quota-sets/{tenant_id}/defaults")],
    ),
    _rule(
        "show",
        base.PROJECT_READER_OR_ADMIN,
        "Show a quota",
        [("GET", "/os-quota-sets/{tenant_id}")],
    ),
    _rule(
        "delete",
        base.ADMIN,
        "Revert quotas to defaults",
        [("DELETE", "/os-quota-sets/{tenant_id}")],
    ),
    _rule(
        "detail",
        base.PROJECT_READER_OR_ADMIN,
        "Show the detail of quota",
        [("GET", "/os-quota-sets/{tenant_id}/detail")],
    ),
]


def list_rules():
    return rules
