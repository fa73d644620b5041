"""Request schema of the resize server action (confirmResize and
revertResize take no options)."""

from nova.api.openstack.compute.schemas import parameter_types

resize = {
    "type": "object",
    "properties": {
        "resize": {
            "type": "object",
            "properties": {
                "flavorRef": parameter_types.flavor_ref,
                "OS-DCF:diskConfig": parameter_types.disk_config,
            },
            "required": ["flavorRef"],
            "additionalProperties": False,
        }
    },
    "required": ["resize"],
    "additionalProperties": False,
}
