"""Rules of the server tags API (``/servers/{server_id}/tags``, 2.26)."""

from nova.policies import base
from nova.policies.documented import rule

BASE_POLICY_NAME = "os_compute_api:os-server-tags:%s"
_PATH = "/servers/{server_id}/tags"
_ITEM_PATH = "/servers/{server_id}/tags/{tag}"


rules = [
    rule(
        BASE_POLICY_NAME % "delete_all",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete all the server tags",
        [("DELETE", _PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "index",
        base.PROJECT_READER_OR_ADMIN,
        "List all tags for given server",
        [("GET", _PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "update_all",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Replace all tags on specified server with the new set of tags.",
        [("PUT", _PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "delete",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete a single tag from the specified server",
        [("DELETE", _ITEM_PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "update",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Add a single tag to the server if server has no specified tag",
        [("PUT", _ITEM_PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "show",
        base.PROJECT_READER_OR_ADMIN,
        "Check tag existence on the server.",
        [("GET", _ITEM_PATH)],
    ),
]


def list_rules():
    return rules
