"""Rules of the server metadata API (``/servers/{server_id}/metadata``)."""

from nova.policies import base
from nova.policies.documented import rule

BASE_POLICY_NAME = "os_compute_api:server-metadata:%s"
_PATH = "/servers/{server_id}/metadata"
_ITEM_PATH = "/servers/{server_id}/metadata/{key}"


rules = [
    rule(
        BASE_POLICY_NAME % "index",
        base.PROJECT_READER_OR_ADMIN,
        "List all metadata of a server",
        [("GET", _PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "show",
        base.PROJECT_READER_OR_ADMIN,
        "Show metadata for a server",
        [("GET", _ITEM_PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "create",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create metadata for a server",
        [("POST", _PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "update_all",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Replace metadata for a server",
        [("PUT", _PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "update",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Update metadata from a server",
        [("PUT", _ITEM_PATH)],
    ),
    rule(
        BASE_POLICY_NAME % "delete",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete metadata from a server",
        [("DELETE", _ITEM_PATH)],
    ),
]


def list_rules():
    return rules
