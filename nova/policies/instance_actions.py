"""Rules of the os-instance-actions API."""

from nova.policies import base
from nova.policies.documented import rule

BASE_POLICY_NAME = "os_compute_api:os-instance-actions:%s"
_SHOW_PATH = "/servers/{server_id}/os-instance-actions/{request_id}"

rules = [
    rule(
        BASE_POLICY_NAME % "events:details",
        base.ADMIN,
        "Add the 'details' of failed events (2.84) to the action's events. "
        "Checked after os_compute_api:os-instance-actions:show passes; the "
        "details may reveal how the deployment is built.",
        [("GET", _SHOW_PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "events",
        base.ADMIN,
        "Add the events of an action to its details (before 2.51), their "
        "tracebacks (from 2.51) and the name of the host each ran on "
        "(from 2.62). Checked after os_compute_api:os-instance-actions:show "
        "passes.",
        [("GET", _SHOW_PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "list",
        base.PROJECT_READER_OR_ADMIN,
        "List actions for a server.",
        [("GET", "/servers/{server_id}/os-instance-actions")],
    ),
    rule(
        BASE_POLICY_NAME % "show",
        base.PROJECT_READER_OR_ADMIN,
        "Show action details for a server.",
        [("GET", _SHOW_PATH)],
    ),
]


def list_rules():
    return rules
