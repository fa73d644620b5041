"""Request schemas of the os-server-external-events API, per microversion."""

import copy

EVENT_STATUSES = ["failed", "completed", "in-progress"]

_NAMES_V21 = [
    "network-changed",
    "network-vif-plugged",
    "network-vif-unplugged",
    "network-vif-deleted",
]


def _create(names: list[str]) -> dict:
    return {
        "type": "object",
        "properties": {
            "events": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "server_uuid": {"type": "string", "format": "uuid"},
                        "name": {"type": "string", "enum": copy.copy(names)},
                        "status": {"type": "string", "enum": EVENT_STATUSES},
                        "tag": {"type": "string", "maxLength": 255},
                    },
                    "required": ["server_uuid", "name"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["events"],
        "additionalProperties": False,
    }


create = _create(_NAMES_V21)
create_v251 = _create([*_NAMES_V21, "volume-extended"])
create_v276 = _create([*_NAMES_V21, "volume-extended", "power-update"])
create_v282 = _create(
    [*_NAMES_V21, "volume-extended", "power-update", "accelerator-request-bound"]
)
create_v293 = _create(
    [
        *_NAMES_V21,
        "volume-extended",
        "power-update",
        "accelerator-request-bound",
        "volume-reimaged",
    ]
)
