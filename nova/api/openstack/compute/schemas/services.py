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

# PUT /os-services/{action} before 2.53: the service by host and binary.
service_update = {
    "type": "object",
    "properties": {
        "host": parameter_types.fqdn,
        "binary": {"type": "string", "minLength": 1, "maxLength": 255},
        "disabled_reason": {"type": "string", "minLength": 1, "maxLength": 255},
    },
    "required": ["host", "binary"],
    "additionalProperties": False,
}

service_update_v211 = copy.deepcopy(service_update)
service_update_v211["properties"]["forced_down"] = parameter_types.boolean

# PUT /os-services/{service_id} from 2.53: the service by uuid.
service_update_v253 = {
    "type": "object",
    "properties": {
        "status": {"type": "string", "enum": ["enabled", "disabled"]},
        "disabled_reason": {"type": "string", "minLength": 1, "maxLength": 255},
        "forced_down": parameter_types.boolean,
    },
    "additionalProperties": False,
}
