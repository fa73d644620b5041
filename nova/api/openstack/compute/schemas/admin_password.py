"""Request body of the ``changePassword`` server action."""

from nova.api.openstack.compute.schemas import parameter_types

change_password = {
    "type": "object",
    "properties": {
        "changePassword": {
            "type": "object",
            "properties": {"adminPass": parameter_types.admin_password},
            "required": ["adminPass"],
            "additionalProperties": False,
        }
    },
    "required": ["changePassword"],
    "additionalProperties": False,
}
