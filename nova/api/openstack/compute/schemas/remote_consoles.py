"""Request bodies of ``POST /servers/{server_id}/remote-consoles``."""

import copy

create_v26 = {
    "type": "object",
    "properties": {
        "remote_console": {
            "type": "object",
            "properties": {
                "protocol": {
                    "type": "string",
                    "enum": ["vnc", "spice", "rdp", "serial"],
                },
                "type": {
                    "type": "string",
                    "enum": ["novnc", "xvpvnc", "rdp-html5", "spice-html5", "serial"],
                },
            },
            "required": ["protocol", "type"],
            "additionalProperties": False,
        },
    },
    "required": ["remote_console"],
    "additionalProperties": False,
}

# 2.8 adds VMware's MKS consoles.
create_v28 = copy.deepcopy(create_v26)
create_v28["properties"]["remote_console"]["properties"]["protocol"]["enum"].append(
    "mks"
)
create_v28["properties"]["remote_console"]["properties"]["type"]["enum"].append(
    "webmks"
)

# 2.99 adds SPICE consoles for native clients behind a SPICE proxy.
create_v299 = copy.deepcopy(create_v28)
create_v299["properties"]["remote_console"]["properties"]["type"]["enum"].append(
    "spice-direct"
)


def _legacy_action(action: str, console_types: list[str]) -> dict:
    return {
        "type": "object",
        "properties": {
            action: {
                "type": "object",
                "properties": {"type": {"type": "string", "enum": console_types}},
                "required": ["type"],
                "additionalProperties": False,
            }
        },
        "required": [action],
        "additionalProperties": False,
    }


# The server actions of 2.1-2.5, one per protocol (RDP's is gone: no body).
get_vnc_console = _legacy_action("os-getVNCConsole", ["novnc", "xvpvnc"])
get_spice_console = _legacy_action("os-getSPICEConsole", ["spice-html5"])
get_serial_console = _legacy_action("os-getSerialConsole", ["serial"])
