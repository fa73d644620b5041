"""Request schemas of the quota sets and quota class sets APIs."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

# Resources nova-network once limited: shown until 2.36, settable until then.
NETWORK_RESOURCES = (
    "fixed_ips",
    "floating_ips",
    "security_groups",
    "security_group_rules",
)
# Injected files (personality) went away at 2.57.
INJECTED_FILE_RESOURCES = (
    "injected_files",
    "injected_file_content_bytes",
    "injected_file_path_bytes",
)
SERVER_GROUP_RESOURCES = ("server_groups", "server_group_members")

_limit = {
    "type": ["integer", "string"],
    "pattern": "^-?[0-9]+$",
    # -1 means unlimited.
    "minimum": -1,
    "maximum": parameter_types.MAX_INT,
}

_BASE_RESOURCES = (
    "instances",
    "cores",
    "ram",
    "metadata_items",
    "key_pairs",
    *INJECTED_FILE_RESOURCES,
    *SERVER_GROUP_RESOURCES,
)


def _update_schema(wrapper: str, resources, extra: dict | None = None) -> dict:
    properties = {name: _limit for name in resources}
    properties.update(extra or {})
    return {
        "type": "object",
        "properties": {
            wrapper: {
                "type": "object",
                "properties": properties,
                "additionalProperties": False,
            },
        },
        "required": [wrapper],
        "additionalProperties": False,
    }


_force = {"force": parameter_types.boolean}

update = _update_schema(
    "quota_set", (*_BASE_RESOURCES, *NETWORK_RESOURCES, "networks"), _force
)
update_v236 = _update_schema("quota_set", _BASE_RESOURCES, _force)
update_v257 = _update_schema(
    "quota_set",
    [r for r in _BASE_RESOURCES if r not in INJECTED_FILE_RESOURCES],
    _force,
)

_CLASS_BASE = [r for r in _BASE_RESOURCES if r not in SERVER_GROUP_RESOURCES]
class_update = _update_schema("quota_class_set", (*_CLASS_BASE, *NETWORK_RESOURCES))
class_update_v250 = _update_schema("quota_class_set", _BASE_RESOURCES)
class_update_v257 = _update_schema(
    "quota_class_set",
    [r for r in _BASE_RESOURCES if r not in INJECTED_FILE_RESOURCES],
)

query = {
    "type": "object",
    "properties": {"user_id": parameter_types.multi_params({"type": "string"})},
    "additionalProperties": True,
}
query_v275 = copy.deepcopy(query)
query_v275["additionalProperties"] = False

# GET /os-quota-sets/{id}/defaults takes no parameters.
defaults_query_v275 = {
    "type": "object",
    "properties": {},
    "additionalProperties": False,
}

limits_query = {
    "type": "object",
    "properties": {"tenant_id": parameter_types.multi_params({"type": "string"})},
    "additionalProperties": True,
}
limits_query_v275 = copy.deepcopy(limits_query)
limits_query_v275["additionalProperties"] = False
