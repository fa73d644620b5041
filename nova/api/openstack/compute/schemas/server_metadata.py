"""Request schemas of the server metadata API."""

from nova.api.openstack.compute.schemas import parameter_types

create = {
    "type": "object",
    "properties": {"metadata": parameter_types.metadata},
    "required": ["metadata"],
    "additionalProperties": False,
}

# PUT /servers/{server_id}/metadata replaces everything with the same body.
update_all = create

update = {
    "type": "object",
    "properties": {
        "meta": {**parameter_types.metadata, "minProperties": 1, "maxProperties": 1}
    },
    "required": ["meta"],
    "additionalProperties": False,
}
