"""Request schemas of the os-aggregates API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

# A zone name: a name that cannot hold the ':' of "zone:host:node" requests.
_availability_zone = {
    "oneOf": [
        {**parameter_types.name, "pattern": "^[^:]*$"},
        {"type": "null"},
    ]
}

create = {
    "type": "object",
    "properties": {
        "aggregate": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                "availability_zone": _availability_zone,
            },
            "required": ["name"],
            "additionalProperties": False,
        },
    },
    "required": ["aggregate"],
    "additionalProperties": False,
}

update = copy.deepcopy(create)
update["properties"]["aggregate"].pop("required")
update["properties"]["aggregate"]["anyOf"] = [
    {"required": ["name"]},
    {"required": ["availability_zone"]},
]


def _host_action(action: str) -> dict:
    return {
        "type": "object",
        "properties": {
            action: {
                "type": "object",
                "properties": {"host": parameter_types.fqdn},
                "required": ["host"],
                "additionalProperties": False,
            },
        },
        "required": [action],
        "additionalProperties": False,
    }


add_host = _host_action("add_host")
remove_host = _host_action("remove_host")

# A null value removes the key.
_metadata_with_null = copy.deepcopy(parameter_types.metadata)
for _value_schema in _metadata_with_null["patternProperties"].values():
    _value_schema["type"] = ["string", "null"]

set_metadata = {
    "type": "object",
    "properties": {
        "set_metadata": {
            "type": "object",
            "properties": {"metadata": _metadata_with_null},
            "required": ["metadata"],
            "additionalProperties": False,
        },
    },
    "required": ["set_metadata"],
    "additionalProperties": False,
}
