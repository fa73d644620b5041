"""Rules of the os-simple-tenant-usage API."""

from nova.policies import base
from nova.policies.documented import rule

POLICY_ROOT = "os_compute_api:os-simple-tenant-usage:%s"

rules = [
    rule(
        POLICY_ROOT % "show",
        base.PROJECT_READER_OR_ADMIN,
        "Show usage statistics for a specific tenant",
        [("GET", "/os-simple-tenant-usage/{tenant_id}")],
    ),
    rule(
        POLICY_ROOT % "list",
        base.ADMIN,
        "List per tenant usage statistics for all tenants",
        [("GET", "/os-simple-tenant-usage")],
    ),
]


def list_rules():
    return rules
