"""Request schemas of the flavors API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types
from nova.objects.flavor import SORT_KEYS

index_query = {
    "type": "object",
    "properties": {
        "limit": parameter_types.multi_params(parameter_types.non_negative_integer),
        "marker": parameter_types.multi_params({"type": "string"}),
        "is_public": parameter_types.multi_params({"type": "string"}),
        "minRam": parameter_types.multi_params({"type": "string"}),
        "minDisk": parameter_types.multi_params({"type": "string"}),
        "sort_key": parameter_types.multi_params(
            {"type": "string", "enum": list(SORT_KEYS)}
        ),
        "sort_dir": parameter_types.multi_params(
            {"type": "string", "enum": ["asc", "desc"]}
        ),
    },
    # Unknown parameters were ignored until 2.75 refused them.
    "additionalProperties": True,
}

index_query_v275 = copy.deepcopy(index_query)
index_query_v275["additionalProperties"] = False

_flavor_param_positive = {
    "type": ["integer", "string"],
    "pattern": "^[0-9]*$",
    "minimum": 1,
    "maximum": parameter_types.MAX_INT,
    "minLength": 1,
}
_flavor_param_non_negative = dict(_flavor_param_positive, minimum=0)

create = {
    "type": "object",
    "properties": {
        "flavor": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                # No surrounding whitespace; "auto" or null means "generate".
                "id": {
                    "type": ["string", "number", "null"],
                    "minLength": 1,
                    "maxLength": 255,
                    "pattern": "^(?! )[a-zA-Z0-9. _-]+(?<! )$",
                },
                "ram": _flavor_param_positive,
                "vcpus": _flavor_param_positive,
                "disk": _flavor_param_non_negative,
                "OS-FLV-EXT-DATA:ephemeral": _flavor_param_non_negative,
                "swap": _flavor_param_non_negative,
                "rxtx_factor": {
                    "type": ["number", "string"],
                    "pattern": r"^[0-9]+(\.[0-9]+)?$",
                    "minimum": 0,
                    "exclusiveMinimum": True,
                    "maximum": parameter_types.SQL_SP_FLOAT_MAX,
                },
                "os-flavor-access:is_public": parameter_types.boolean,
            },
            "required": ["name", "ram", "vcpus", "disk"],
            "additionalProperties": False,
        },
    },
    "required": ["flavor"],
    "additionalProperties": False,
}

create_v255 = copy.deepcopy(create)
create_v255["properties"]["flavor"]["properties"]["description"] = (
    parameter_types.description
)

update = {
    "type": "object",
    "properties": {
        "flavor": {
            "type": "object",
            "properties": {"description": parameter_types.description},
            "required": ["description"],
            "additionalProperties": False,
        },
    },
    "required": ["flavor"],
    "additionalProperties": False,
}
