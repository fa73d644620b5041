"""Request schemas of the server tags API (2.26)."""

from nova.api.openstack.compute.schemas import parameter_types

update_all = {
    "type": "object",
    "properties": {"tags": {"type": "array", "items": parameter_types.tag}},
    "required": ["tags"],
    "additionalProperties": False,
}
