"""Rules of the os-server-external-events API."""

from nova.policies.documented import rule

POLICY_ROOT = "os_compute_api:os-server-external-events:%s"
# Keystone's service role (outside the admin > member > reader hierarchy).
SERVICE_ROLE = "role:service"

rules = [
    rule(
        POLICY_ROOT % "create",
        # Only Neutron's and Cinder's service users send events, as upstream
        # defaults; operators who want admins to may say so in policy.yaml.
        SERVICE_ROLE,
        "Create one or more external events",
        [("POST", "/os-server-external-events")],
    ),
]


def list_rules():
    return rules
