"""Rules of the os-migrations API."""

from nova.policies import base
from nova.policies.documented import rule

POLICY_ROOT = "os_compute_api:os-migrations:%s"

rules = [
    rule(
        POLICY_ROOT % "index",
        base.ADMIN,
        "List migrations",
        [("GET", "/os-migrations")],
    ),
]


def list_rules():
    return rules
