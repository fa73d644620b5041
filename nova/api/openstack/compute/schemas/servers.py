"""Request schemas of the servers API, per microversion.

Each schema is the previous one plus the change its microversion made;
the handler declares which range each applies to.
"""

import copy

from nova.api.openstack.compute.schemas import parameter_types

# Most tags one server may have.
MAX_TAG_COUNT = 50


def _derive(schema: dict, **server_properties) -> dict:
    """``schema`` with properties of its server object added or replaced
    (a value of None removes one)."""
    derived = copy.deepcopy(schema)
    root = next(iter(derived["required"]))
    properties = derived["properties"][root]["properties"]
    for name, value in server_properties.items():
        if value is None:
            properties.pop(name, None)
        else:
            properties[name] = copy.deepcopy(value)
    return derived


_legacy_block_device_mapping = {
    "type": "object",
    "properties": {
        "virtual_name": {"type": "string", "maxLength": 255},
        "volume_id": parameter_types.volume_id,
        "snapshot_id": parameter_types.image_id,
        "volume_size": parameter_types.volume_size,
        "device_name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^[a-zA-Z0-9._/-]*$",
        },
        "delete_on_termination": parameter_types.boolean,
        "no_device": {},
        "connection_info": {"type": "string", "maxLength": 16777215},
    },
    "additionalProperties": False,
}

_block_device_mapping_v2 = copy.deepcopy(_legacy_block_device_mapping)
_block_device_mapping_v2["properties"].update(
    {
        "source_type": {
            "type": "string",
            "enum": ["volume", "image", "snapshot", "blank"],
        },
        "uuid": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^[a-zA-Z0-9._-]*$",
        },
        "image_id": parameter_types.image_id,
        "destination_type": {"type": "string", "enum": ["local", "volume"]},
        "guest_format": {"type": "string", "maxLength": 255},
        "device_type": {"type": "string", "maxLength": 255},
        "disk_bus": {"type": "string", "maxLength": 255},
        # Legacy clients send the index as a string, or null.
        "boot_index": {"type": ["integer", "string", "null"], "pattern": "^-?[0-9]+$"},
    }
)


def _bdm_v2_with(**properties) -> dict:
    schema = copy.deepcopy(_block_device_mapping_v2)
    schema["properties"].update(properties)
    return {"type": "array", "items": schema}


scheduler_hints = {
    "type": "object",
    "properties": {
        "group": {"type": "string", "format": "uuid"},
        "different_host": {
            "oneOf": [
                {"type": "string", "format": "uuid"},
                {"type": "array", "items": parameter_types.uuid},
            ]
        },
        "same_host": {"type": ["string", "array"], "items": parameter_types.uuid},
        "query": {"type": ["string", "object"]},
        "target_cell": parameter_types.name,
        "different_cell": {"type": ["string", "array"], "items": {"type": "string"}},
        "build_near_host_ip": parameter_types.ip_address,
        "cidr": {"type": "string", "pattern": "^/[0-9a-f.:]+$"},
    },
    # Custom scheduler filters read hints of their own.
    "additionalProperties": True,
}

_network = {
    "type": "object",
    "properties": {
        "fixed_ip": parameter_types.ip_address,
        "port": {"oneOf": [{"type": "string", "format": "uuid"}, {"type": "null"}]},
        "uuid": {"type": "string"},
    },
    "additionalProperties": False,
}

create = {
    "type": "object",
    "properties": {
        "server": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                # Empty only when booting from a volume.
                "imageRef": parameter_types.image_id_or_empty_string,
                "flavorRef": parameter_types.flavor_ref,
                "adminPass": parameter_types.admin_password,
                "metadata": parameter_types.metadata,
                "networks": {"type": "array", "items": _network},
                "OS-DCF:diskConfig": parameter_types.disk_config,
                "accessIPv4": parameter_types.accessIPv4,
                "accessIPv6": parameter_types.accessIPv6,
                "personality": parameter_types.personality,
                "availability_zone": parameter_types.name,
                "block_device_mapping": {
                    "type": "array",
                    "items": _legacy_block_device_mapping,
                },
                "block_device_mapping_v2": {
                    "type": "array",
                    "items": _block_device_mapping_v2,
                },
                "config_drive": parameter_types.boolean,
                "key_name": parameter_types.name,
                "min_count": parameter_types.positive_integer,
                "max_count": parameter_types.positive_integer,
                "return_reservation_id": parameter_types.boolean,
                "security_groups": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"name": parameter_types.name},
                        "additionalProperties": False,
                    },
                },
                "user_data": {"type": "string", "format": "base64", "maxLength": 65535},
            },
            "required": ["name", "flavorRef"],
            "additionalProperties": False,
        },
        "os:scheduler_hints": scheduler_hints,
        "OS-SCH-HNT:scheduler_hints": scheduler_hints,
    },
    "required": ["server"],
    "additionalProperties": False,
}

create_v219 = _derive(create, description=parameter_types.description)

_network_tagged = copy.deepcopy(_network)
_network_tagged["properties"]["tag"] = parameter_types.tag

# 2.32 tagged networks and block devices; 2.33 dropped block device tags by
# mistake and 2.42 restored them.
create_v232 = _derive(
    create_v219,
    networks={"type": "array", "items": _network_tagged},
    block_device_mapping_v2=_bdm_v2_with(tag=parameter_types.tag),
)
create_v233 = _derive(create_v219, networks={"type": "array", "items": _network_tagged})

_network_uuid = copy.deepcopy(_network)
_network_uuid["properties"]["uuid"] = parameter_types.uuid

_network_uuid_tagged = copy.deepcopy(_network_uuid)
_network_uuid_tagged["properties"]["tag"] = parameter_types.tag


def _networks_v237(item: dict) -> dict:
    """From 2.37 networks is a list of ``item`` or "none"/"auto"."""
    return {
        "oneOf": [
            {"type": "array", "items": item},
            {"type": "string", "enum": ["none", "auto"]},
        ]
    }


# 2.37: networks is required, and either a list or "none"/"auto".
create_v237 = _derive(create_v233, networks=_networks_v237(_network_uuid))
create_v237["properties"]["server"]["required"].append("networks")

create_v242 = _derive(
    create_v237,
    networks=_networks_v237(_network_uuid_tagged),
    block_device_mapping_v2=_bdm_v2_with(tag=parameter_types.tag),
)

create_v252 = _derive(
    create_v242,
    tags={"type": "array", "items": parameter_types.tag, "maxItems": MAX_TAG_COUNT},
)

create_v257 = _derive(create_v252, personality=None)

create_v263 = _derive(
    create_v257, trusted_image_certificates=parameter_types.trusted_certs
)

create_v267 = _derive(
    create_v263,
    block_device_mapping_v2=_bdm_v2_with(
        tag=parameter_types.tag, volume_type=parameter_types.volume_type
    ),
)

create_v274 = _derive(
    create_v267, host=parameter_types.fqdn, hypervisor_hostname=parameter_types.fqdn
)

create_v290 = _derive(create_v274, hostname=parameter_types.hostname)

create_v294 = _derive(create_v290, hostname=parameter_types.fqdn)

update = {
    "type": "object",
    "properties": {
        "server": {
            "type": "object",
            "properties": {
                "name": parameter_types.name,
                "OS-DCF:diskConfig": parameter_types.disk_config,
                "accessIPv4": parameter_types.accessIPv4,
                "accessIPv6": parameter_types.accessIPv6,
            },
            "additionalProperties": False,
        },
    },
    "required": ["server"],
    "additionalProperties": False,
}

update_v219 = _derive(update, description=parameter_types.description)
update_v290 = _derive(update_v219, hostname=parameter_types.hostname)
update_v294 = _derive(update_v290, hostname=parameter_types.fqdn)
# 2.104: unpin a server from its availability zone (null) or pin it again.
update_v2104 = _derive(
    update_v294, pinned_availability_zone=parameter_types.name_or_none
)

# -- query strings of GET /servers and /servers/detail ------------------------

# Sort keys accepted before 2.75 but ignored (they were never meant to be).
IGNORED_SORT_KEYS = [
    "architecture",
    "cell_name",
    "cleaned",
    "default_ephemeral_device",
    "default_swap_device",
    "deleted",
    "deleted_at",
    "disable_terminate",
    "ephemeral_gb",
    "ephemeral_key_uuid",
    "id",
    "key_data",
    "launched_on",
    "locked",
    "memory_mb",
    "os_type",
    "reservation_id",
    "root_gb",
    "shutdown_terminate",
    "user_data",
    "vcpus",
    "vm_mode",
]
# 2.73 made locked a real sort key.
IGNORED_SORT_KEYS_V273 = [key for key in IGNORED_SORT_KEYS if key != "locked"]

SORT_KEYS = [
    "access_ip_v4",
    "access_ip_v6",
    "auto_disk_config",
    "availability_zone",
    "config_drive",
    "created_at",
    "display_description",
    "display_name",
    "host",
    "hostname",
    "image_ref",
    "instance_type_id",
    "kernel_id",
    "key_name",
    "launch_index",
    "launched_at",
    "locked_by",
    "node",
    "power_state",
    "progress",
    "project_id",
    "ramdisk_id",
    "root_device_name",
    "task_state",
    "terminated_at",
    "updated_at",
    "user_id",
    "uuid",
    "vm_state",
]
SORT_KEYS_V273 = [*SORT_KEYS, "locked"]

# Names of tables joined to instances, which once leaked in as filters.
JOINED_TABLE_PARAMS = (
    "block_device_mapping",
    "services",
    "metadata",
    "system_metadata",
    "info_cache",
    "security_groups",
    "pci_devices",
)

_param = parameter_types.common_query_param
_regex = parameter_types.common_query_regex_param

index_query = {
    "type": "object",
    "properties": {
        "user_id": _param,
        "project_id": _param,
        "tenant_id": _param,
        "launch_index": _param,
        "image_ref": _param,
        "image": _param,
        "kernel_id": _regex,
        "ramdisk_id": _regex,
        "hostname": _regex,
        "key_name": _regex,
        "power_state": _regex,
        "vm_state": _param,
        "task_state": _param,
        "host": _param,
        "node": _regex,
        "flavor": _regex,
        "reservation_id": _regex,
        "launched_at": _regex,
        "terminated_at": _regex,
        "availability_zone": _regex,
        "name": _regex,
        "display_name": _regex,
        "description": _regex,
        "display_description": _regex,
        "locked_by": _regex,
        "uuid": _param,
        "root_device_name": _regex,
        "config_drive": _regex,
        "access_ip_v4": _regex,
        "access_ip_v6": _regex,
        "auto_disk_config": _regex,
        "progress": _regex,
        "sort_key": parameter_types.multi_params(
            {"type": "string", "enum": SORT_KEYS + IGNORED_SORT_KEYS}
        ),
        "sort_dir": _param,
        "all_tenants": _param,
        "soft_deleted": _param,
        "deleted": _param,
        "status": _param,
        "changes-since": parameter_types.multi_params(
            {"type": "string", "format": "date-time"}
        ),
        "ip": _regex,
        "ip6": _regex,
        "created_at": _regex,
        # Joined tables: accepted here, refused by the handler.
        **dict.fromkeys(JOINED_TABLE_PARAMS, _param),
        **parameter_types.pagination_parameters,
    },
    # Unknown parameters were dropped until 2.75 refused them.
    "additionalProperties": True,
    # Internal attributes must not slip through as unknown-and-ignored.
    "patternProperties": {"^_": _param},
}

index_query_v226 = copy.deepcopy(index_query)
index_query_v226["properties"].update(
    {"tags": _regex, "tags-any": _regex, "not-tags": _regex, "not-tags-any": _regex}
)

index_query_v266 = copy.deepcopy(index_query_v226)
index_query_v266["properties"]["changes-before"] = parameter_types.multi_params(
    {"type": "string", "format": "date-time"}
)

index_query_v273 = copy.deepcopy(index_query_v266)
index_query_v273["properties"].update(
    {
        "sort_key": parameter_types.multi_params(
            {"type": "string", "enum": SORT_KEYS_V273 + IGNORED_SORT_KEYS_V273}
        ),
        "locked": _param,
    }
)

index_query_v275 = copy.deepcopy(index_query_v273)
index_query_v275["properties"]["sort_key"] = parameter_types.multi_params(
    {"type": "string", "enum": SORT_KEYS_V273}
)
index_query_v275["additionalProperties"] = False

# GET /servers/{id} takes no parameters; 2.102 refuses unknown ones.
show_query = {"type": "object", "properties": {}, "additionalProperties": True}
show_query_v2102 = {"type": "object", "properties": {}, "additionalProperties": False}


reboot = {
    "type": "object",
    "properties": {
        "reboot": {
            "type": "object",
            "properties": {
                "type": {
                    "type": "string",
                    "enum": ["HARD", "Hard", "hard", "SOFT", "Soft", "soft"],
                }
            },
            "required": ["type"],
            "additionalProperties": False,
        }
    },
    "required": ["reboot"],
    "additionalProperties": False,
}
