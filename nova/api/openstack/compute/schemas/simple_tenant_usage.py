"""Query schemas of the os-simple-tenant-usage API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

show_query = {
    "type": "object",
    "properties": {
        "start": parameter_types.common_query_param,
        "end": parameter_types.common_query_param,
    },
    "additionalProperties": True,
}

# 2.40: paging by instance uuid.
show_query_v240 = copy.deepcopy(show_query)
show_query_v240["properties"].update(parameter_types.pagination_parameters)

# 2.75: unknown parameters refused.
show_query_v275 = copy.deepcopy(show_query_v240)
show_query_v275["additionalProperties"] = False

index_query = copy.deepcopy(show_query)
index_query["properties"]["detailed"] = parameter_types.common_query_param

index_query_v240 = copy.deepcopy(show_query_v240)
index_query_v240["properties"]["detailed"] = parameter_types.common_query_param

index_query_v275 = copy.deepcopy(index_query_v240)
index_query_v275["additionalProperties"] = False
