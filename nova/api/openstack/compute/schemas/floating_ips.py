"""Request bodies of the ``addFloatingIp`` and ``removeFloatingIp`` server
actions."""

from nova.api.openstack.compute.schemas import parameter_types

add_floating_ip = {
    "type": "object",
    "properties": {
        "addFloatingIp": {
            "type": "object",
            "properties": {
                "address": parameter_types.ip_address,
                "fixed_address": parameter_types.ip_address,
            },
            "required": ["address"],
            "additionalProperties": False,
        }
    },
    "required": ["addFloatingIp"],
    "additionalProperties": False,
}

remove_floating_ip = {
    "type": "object",
    "properties": {
        "removeFloatingIp": {
            "type": "object",
            "properties": {"address": parameter_types.ip_address},
            "required": ["address"],
            "additionalProperties": False,
        }
    },
    "required": ["removeFloatingIp"],
    "additionalProperties": False,
}
