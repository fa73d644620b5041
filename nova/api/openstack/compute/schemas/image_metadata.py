"""Bodies of ``/images/{image_id}/metadata``."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

create = {
    "type": "object",
    "properties": {"metadata": parameter_types.metadata},
    "required": ["metadata"],
    "additionalProperties": False,
}

# One item, named by the URL.
single_metadata = copy.deepcopy(parameter_types.metadata)
single_metadata.update({"minProperties": 1, "maxProperties": 1})

update = {
    "type": "object",
    "properties": {"meta": single_metadata},
    "required": ["meta"],
    "additionalProperties": False,
}

update_all = create
