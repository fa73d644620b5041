"""Request schema of the rescue server action."""

from nova.api.openstack.compute.schemas import parameter_types

rescue = {
    "type": "object",
    "properties": {
        "rescue": {
            "type": ["object", "null"],
            "properties": {
                "adminPass": parameter_types.admin_password,
                "rescue_image_ref": parameter_types.image_id,
            },
            "additionalProperties": False,
        }
    },
    "required": ["rescue"],
    "additionalProperties": False,
}
