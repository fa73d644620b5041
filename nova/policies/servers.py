"""Rules of the servers API (``/servers``)."""

from oslo_policy import policy

from nova.policies import base

SERVERS = "os_compute_api:servers:%s"


def _rule(name, check_str, description, operations):
    return policy.DocumentedRuleDefault(
        name=SERVERS % name,
        check_str=check_str,
        description=description,
        operations=[{"method": method, "path": path} for method, path in operations],
        scope_types=base.PROJECT_SCOPE,
    )


rules = [
    _rule(
        "index", base.PROJECT_READER_OR_ADMIN, "List all servers", [("GET", "/servers")]
    ),
    _rule(
        "detail",
        base.PROJECT_READER_OR_ADMIN,
        "List all servers with detailed information",
        [("GET", "/servers/detail")],
    ),
    _rule(
        "index:get_all_tenants",
        base.ADMIN,
        "List all servers for all projects",
        [("GET", "/servers")],
    ),
    _rule(
        "detail:get_all_tenants",
        base.ADMIN,
        "List all servers with detailed information for all projects",
        [("GET", "/servers/detail")],
    ),
    _rule(
        "allow_all_filters",
        base.ADMIN,
        "Allow all filters when listing servers",
        [("GET", "/servers"), ("GET", "/servers/detail")],
    ),
    _rule(
        "show",
        base.PROJECT_READER_OR_ADMIN,
        "Show a server",
        [("GET", "/servers/{server_id}")],
    ),
    _rule(
        "show:flavor-extra-specs",
        base.PROJECT_READER_OR_ADMIN,
        "Starting with microversion 2.47, the flavor and its extra specs "
        "used for a server is also returned in the response when showing "
        "server details, updating a server or rebuilding a server.",
        [
            ("GET", "/servers/detail"),
            ("GET", "/servers/{server_id}"),
            ("PUT", "/servers/{server_id}"),
        ],
    ),
    _rule(
        "show:host_status",
        base.ADMIN,
        "Show a server with additional host status information.",
        [("GET", "/servers/{server_id}"), ("GET", "/servers/detail")],
    ),
    _rule(
        "create",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create a server",
        [("POST", "/servers")],
    ),
    _rule(
        "create:forced_host",
        base.ADMIN,
        "Create a server on the specified host and/or node.",
        [("POST", "/servers")],
    ),
    _rule(
        "create:requested_destination",
        base.ADMIN,
        "Create a server on the requested compute service host and/or "
        "hypervisor_hostname, validated by the scheduler.",
        [("POST", "/servers")],
    ),
    _rule(
        "create:attach_volume",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create a server with the requested volume attached to it",
        [("POST", "/servers")],
    ),
    _rule(
        "create:attach_network",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create a server with the requested network attached to it",
        [("POST", "/servers")],
    ),
    _rule(
        "create:trusted_certs",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create a server with trusted image certificate IDs",
        [("POST", "/servers")],
    ),
    _rule(
        "create:zero_disk_flavor",
        base.ADMIN,
        "Create a server with a zero-disk flavor booting from an image "
        "(the root disk then has the image's size).",
        [("POST", "/servers")],
    ),
    _rule(
        "update",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Update a server",
        [("PUT", "/servers/{server_id}")],
    ),
    _rule(
        "delete",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Delete a server",
        [("DELETE", "/servers/{server_id}")],
    ),
    _rule(
        "start",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Start a server",
        [("POST", "/servers/{server_id}/action (os-start)")],
    ),
    _rule(
        "stop",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Stop a server",
        [("POST", "/servers/{server_id}/action (os-stop)")],
    ),
    _rule(
        "reboot",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Reboot a server",
        [("POST", "/servers/{server_id}/action (reboot)")],
    ),
    _rule(
        "trigger_crash_dump",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Trigger crash dump in a server",
        [("POST", "/servers/{server_id}/action (trigger_crash_dump)")],
    ),
    _rule(
        "create_image",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create an image from a server",
        [("POST", "/servers/{server_id}/action (createImage)")],
    ),
    _rule(
        "create_image:allow_volume_backed",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Create an image from a volume backed server",
        [("POST", "/servers/{server_id}/action (createImage)")],
    ),
    _rule(
        "rebuild",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Rebuild a server",
        [("POST", "/servers/{server_id}/action (rebuild)")],
    ),
    _rule(
        "resize",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Resize a server",
        [("POST", "/servers/{server_id}/action (resize)")],
    ),
    _rule(
        "confirm_resize",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Confirm a server resize",
        [("POST", "/servers/{server_id}/action (confirmResize)")],
    ),
    _rule(
        "revert_resize",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Revert a server resize",
        [("POST", "/servers/{server_id}/action (revertResize)")],
    ),
    _rule(
        "rebuild:trusted_certs",
        base.PROJECT_MEMBER_OR_ADMIN,
        "Rebuild a server with trusted image certificate IDs",
        [("POST", "/servers/{server_id}/action (rebuild)")],
    ),
]


def list_rules():
    return rules
