"""Request schemas of the unshelve server action, per microversion
(shelve and shelveOffload take no options)."""

from nova.api.openstack.compute.schemas import parameter_types

# 2.77: an offloaded server may be unshelved into another zone.
unshelve_v277 = {
    "type": "object",
    "properties": {
        "unshelve": {
            "type": ["object", "null"],
            "properties": {"availability_zone": parameter_types.name},
            "additionalProperties": False,
        }
    },
    "required": ["unshelve"],
    "additionalProperties": False,
}

# 2.91: an admin may name the host; a null zone unpins the server.
unshelve_v291 = {
    "type": "object",
    "properties": {
        "unshelve": {
            "type": ["object", "null"],
            "properties": {
                "availability_zone": {
                    "oneOf": [{"type": "null"}, parameter_types.name]
                },
                "host": parameter_types.fqdn,
            },
            "additionalProperties": False,
        }
    },
    "required": ["unshelve"],
    "additionalProperties": False,
}
