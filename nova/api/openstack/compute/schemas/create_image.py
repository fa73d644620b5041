"""Bodies of the ``createImage`` and ``createBackup`` server actions."""

from nova.api.openstack.compute.schemas import parameter_types

create_image = {
    "type": "object",
    "properties": {
        "createImage": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                "metadata": parameter_types.metadata,
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    },
    "required": ["createImage"],
    "additionalProperties": False,
}

create_backup = {
    "type": "object",
    "properties": {
        "createBackup": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                "backup_type": {"type": "string"},
                "rotation": parameter_types.non_negative_integer,
                "metadata": parameter_types.metadata,
            },
            "required": ["name", "backup_type", "rotation"],
            "additionalProperties": False,
        }
    },
    "required": ["createBackup"],
    "additionalProperties": False,
}
