"""Rules of the os-server-external-events API."""

from nova.policies import base
from nova.policies.documented import rule

POLICY_ROOT = "os_compute_api:os-server-external-events:%s"

rules = [
    rule(
        POLICY_ROOT % "create",
        # Neutron and Cinder send events with a service user.
        f"{base.ADMIN} or role:service",
        "Create one or more external events",
        [("POST", "/os-server-external-events")],
    ),
]


def list_rules():
    return rules
