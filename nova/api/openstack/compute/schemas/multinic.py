"""Request bodies of the ``addFixedIp`` and ``removeFixedIp`` server
actions."""

from nova.api.openstack.compute.schemas import parameter_types

add_fixed_ip = {
    "type": "object",
    "properties": {
        "addFixedIp": {
            "type": "object",
            "properties": {
                "networkId": {
                    "type": ["string", "number"],
                    "minLength": 1,
                    "maxLength": 255,
                    "pattern": "^(?! )[a-zA-Z0-9._-]+(?<! )$",
                }
            },
            "required": ["networkId"],
            "additionalProperties": False,
        }
    },
    "required": ["addFixedIp"],
    "additionalProperties": False,
}

remove_fixed_ip = {
    "type": "object",
    "properties": {
        "removeFixedIp": {
            "type": "object",
            "properties": {"address": parameter_types.ip_address},
            "required": ["address"],
            "additionalProperties": False,
        }
    },
    "required": ["removeFixedIp"],
    "additionalProperties": False,
}
