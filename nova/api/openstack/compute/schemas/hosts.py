"""Request schemas of the os-hosts API (2.1 to 2.42)."""

from nova.api.openstack.compute.schemas import parameter_types

index_query = {
    "type": "object",
    "properties": {"zone": parameter_types.common_query_param},
    # os-hosts was gone before 2.75 refused unknown parameters.
    "additionalProperties": True,
}

_ENABLE_OR_DISABLE = {
    "type": "string",
    "enum": ["enable", "disable", "Enable", "Disable", "ENABLE", "DISABLE"],
}

update = {
    "type": "object",
    "properties": {
        "status": _ENABLE_OR_DISABLE,
        "maintenance_mode": _ENABLE_OR_DISABLE,
    },
    "anyOf": [{"required": ["status"]}, {"required": ["maintenance_mode"]}],
    "additionalProperties": False,
}
