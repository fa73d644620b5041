"""Body of the ``rebuild`` server action, per microversion."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

rebuild = {
    "type": "object",
    "properties": {
        "rebuild": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                "imageRef": parameter_types.image_id,
                "adminPass": parameter_types.admin_password,
                "metadata": parameter_types.metadata,
                "preserve_ephemeral": parameter_types.boolean,
                "OS-DCF:diskConfig": parameter_types.disk_config,
                "accessIPv4": parameter_types.accessIPv4,
                "accessIPv6": parameter_types.accessIPv6,
                "personality": parameter_types.personality,
            },
            "required": ["imageRef"],
            "additionalProperties": False,
        }
    },
    "required": ["rebuild"],
    "additionalProperties": False,
}


def _derive(base: dict, **properties) -> dict:
    """``base`` with properties added (a None value removes one)."""
    schema = copy.deepcopy(base)
    fields = schema["properties"]["rebuild"]["properties"]
    for name, value in properties.items():
        if value is None:
            fields.pop(name, None)
        else:
            fields[name] = value
    return schema


rebuild_v219 = _derive(rebuild, description=parameter_types.description)
rebuild_v254 = _derive(rebuild_v219, key_name=parameter_types.name_or_none)
rebuild_v257 = _derive(
    rebuild_v254,
    personality=None,
    user_data={
        "oneOf": [
            {"type": "string", "format": "base64", "maxLength": 65535},
            {"type": "null"},
        ]
    },
)
rebuild_v263 = _derive(
    rebuild_v257, trusted_image_certificates=parameter_types.trusted_certs
)
rebuild_v290 = _derive(rebuild_v263, hostname=parameter_types.hostname)
rebuild_v294 = _derive(rebuild_v290, hostname=parameter_types.fqdn)
