"""Rules of the os-services API."""

from nova.policies import base
from nova.policies.documented import rule

BASE_POLICY_NAME = "os_compute_api:os-services:%s"

rules = [
    rule(
        BASE_POLICY_NAME % "list",
        base.ADMIN,
        "List all running Compute services in a region.",
        [("GET", "/os-services")],
    ),
    rule(
        BASE_POLICY_NAME % "update",
        base.ADMIN,
        "Update a Compute service.",
        [
            # Before microversion 2.53 the id is an action: enable, disable,
            # disable-log-reason or force-down.
            ("PUT", "/os-services/{service_id}"),
        ],
    ),
    rule(
        BASE_POLICY_NAME % "delete",
        base.ADMIN,
        "Delete a Compute service.",
        [("DELETE", "/os-services/{service_id}")],
    ),
]


def list_rules():
    return rules
