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
