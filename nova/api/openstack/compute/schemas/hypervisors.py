"""Query schemas of the os-hypervisors API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

index_query = {"type": "object", "properties": {}, "additionalProperties": True}

# 2.33: paging.
index_query_v233 = {
    "type": "object",
    "properties": copy.deepcopy(parameter_types.pagination_parameters),
    "additionalProperties": True,
}

# 2.53: search by name and embedded servers; unknown parameters refused.
index_query_v253 = {
    "type": "object",
    "properties": {
        **copy.deepcopy(parameter_types.pagination_parameters),
        "hypervisor_hostname_pattern": parameter_types.common_query_param,
        "with_servers": parameter_types.multi_params(parameter_types.boolean),
    },
    "additionalProperties": False,
}

show_query = {"type": "object", "properties": {}, "additionalProperties": True}

show_query_v253 = {
    "type": "object",
    "properties": {
        "with_servers": parameter_types.multi_params(parameter_types.boolean)
    },
    "additionalProperties": False,
}
