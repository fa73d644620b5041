"""Rules of ``/os-keypairs``: a user's own key pairs, or anyone's for admins."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-keypairs:%s"

# Key pairs belong to users, not projects: the owner is the user.
ADMIN_OR_OWNER = f"({base.ADMIN}) or user_id:%(user_id)s"


def _rule(name: str, description: str, method: str, path: str):
    return policy.DocumentedRuleDefault(
        name=POLICY_ROOT % name,
        check_str=ADMIN_OR_OWNER,
        description=description,
        operations=[{"method": method, "path": path}],
        scope_types=base.PROJECT_SCOPE,
    )


rules = [
    _rule("index", "List all keypairs", "GET", "/os-keypairs"),
    _rule("create", "Create a keypair", "POST", "/os-keypairs"),
    _rule("delete", "Delete a keypair", "DELETE", "/os-keypairs/{keypair_name}"),
    _rule("show", "Show details of a keypair", "GET", "/os-keypairs/{keypair_name}"),
]


def list_rules():
    return rules
