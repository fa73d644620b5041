"""Rules of the os-server-external-events API."""

from nova.policies import base
from nova.policies.documented import rule

POLICY_ROOT = "os_compute_api:os-server-external-events:%s"

rules = [
    rule(
        POLICY_ROOT % "create",
        # Only Neutron's and Cinder's service users send events, as upstream
        # defaults; operators who want admins to may say so in policy.yaml.
        base.SERVICE_ROLE,
        "Create one or more external events",
        [("POST", "/os-server-external-events")],
    ),
]


def list_rules():
    return rules
