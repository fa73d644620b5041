"""Request schemas of the key pairs API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types
from nova.objects.keypair import KEYPAIR_TYPES

# Letters, digits, space, '_' and '-'; 2.92 also allows '@' and '.'.
_name = {
    "type": "string",
    "minLength": 1,
    "maxLength": 255,
    "pattern": "^[a-zA-Z0-9 _-]+$",
}
_name_v292 = dict(_name, pattern="^[a-zA-Z0-9 @._-]+$")

create = {
    "type": "object",
    "properties": {
        "keypair": {
            "type": "object",
            "properties": {"name": _name, "public_key": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
    },
    "required": ["keypair"],
    "additionalProperties": False,
}

create_v22 = copy.deepcopy(create)
create_v22["properties"]["keypair"]["properties"]["type"] = {
    "type": "string",
    "enum": list(KEYPAIR_TYPES),
}

create_v210 = copy.deepcopy(create_v22)
create_v210["properties"]["keypair"]["properties"]["user_id"] = {"type": "string"}

# Nova no longer generates private keys: the public key is required.
create_v292 = copy.deepcopy(create_v210)
create_v292["properties"]["keypair"]["properties"]["name"] = _name_v292
create_v292["properties"]["keypair"]["required"] = ["name", "public_key"]

index_query = {"type": "object", "properties": {}, "additionalProperties": True}

index_query_v210 = {
    "type": "object",
    "properties": {"user_id": parameter_types.multi_params({"type": "string"})},
    "additionalProperties": True,
}

index_query_v235 = copy.deepcopy(index_query_v210)
index_query_v235["properties"].update(parameter_types.pagination_parameters)

index_query_v275 = copy.deepcopy(index_query_v235)
index_query_v275["additionalProperties"] = False

show_query = index_query
show_query_v210 = index_query_v210
show_query_v275 = copy.deepcopy(index_query_v210)
show_query_v275["additionalProperties"] = False
