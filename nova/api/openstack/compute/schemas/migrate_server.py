"""Request schemas of the migrate server action."""

from nova.api.openstack.compute.schemas import parameter_types

# Before 2.56 the action's value is not looked at.
# 2.56: an admin may name the destination host.
migrate_v256 = {
    "type": "object",
    "properties": {
        "migrate": {
            "type": ["object", "null"],
            "properties": {"host": parameter_types.fqdn},
            "additionalProperties": False,
        }
    },
    "required": ["migrate"],
    "additionalProperties": False,
}
