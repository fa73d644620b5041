"""Request schemas of the os-services API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

index_query = {
    "type": "object",
    "properties": {
        "host": parameter_types.common_query_param,
        "binary": parameter_types.common_query_param,
    },
    # Unknown parameters were ignored until 2.75 refused them.
    "additionalProperties": True,
}

index_query_v275 = copy.deepcopy(index_query)
index_query_v275["additionalProperties"] = False
