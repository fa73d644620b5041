"""Query schemas of the os-instance-actions API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

list_query = {"type": "object", "properties": {}, "additionalProperties": True}

# 2.58: paging by request id and changes-since; unknown parameters refused.
list_query_v258 = {
    "type": "object",
    "properties": {
        "limit": parameter_types.multi_params(parameter_types.non_negative_integer),
        "marker": parameter_types.common_query_param,
        "changes-since": parameter_types.multi_params(
            {"type": "string", "format": "date-time"}
        ),
    },
    "additionalProperties": False,
}

# 2.66: changes-before.
list_query_v266 = copy.deepcopy(list_query_v258)
list_query_v266["properties"]["changes-before"] = parameter_types.multi_params(
    {"type": "string", "format": "date-time"}
)
