"""Request schemas of the os-server-groups API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

_HARD_POLICIES = ["anti-affinity", "affinity"]
# 2.15 adds the soft policies, which weighers honour as far as they can.
_ALL_POLICIES = [*_HARD_POLICIES, "soft-anti-affinity", "soft-affinity"]


def _create_with_policies(allowed: list[str]) -> dict:
    return {
        "type": "object",
        "properties": {
            "server_group": {
                "type": "object",
                "properties": {
                    "name": parameter_types.name,
                    "policies": {
                        "type": "array",
                        "items": [{"type": "string", "enum": allowed}],
                        "uniqueItems": True,
                        "minItems": 1,
                        "additionalItems": False,
                    },
                },
                "required": ["name", "policies"],
                "additionalProperties": False,
            },
        },
        "required": ["server_group"],
        "additionalProperties": False,
    }


create = _create_with_policies(_HARD_POLICIES)
create_v215 = _create_with_policies(_ALL_POLICIES)

# 2.64: one ``policy`` and its ``rules`` replace the list of policies.
create_v264 = {
    "type": "object",
    "properties": {
        "server_group": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                "policy": {"type": "string", "enum": _ALL_POLICIES},
                "rules": {
                    "type": "object",
                    "properties": {
                        "max_server_per_host": parameter_types.positive_integer,
                    },
                    "additionalProperties": False,
                },
            },
            "required": ["name", "policy"],
            "additionalProperties": False,
        },
    },
    "required": ["server_group"],
    "additionalProperties": False,
}

index_query = {
    "type": "object",
    "properties": {
        "all_projects": parameter_types.common_query_param,
        "limit": parameter_types.multi_params(parameter_types.non_negative_integer),
        "offset": parameter_types.multi_params(parameter_types.non_negative_integer),
    },
    # Unknown parameters were ignored until 2.75 refused them.
    "additionalProperties": True,
}

index_query_v275 = copy.deepcopy(index_query)
index_query_v275["additionalProperties"] = False
