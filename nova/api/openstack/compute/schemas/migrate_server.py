"""Request schemas of the migrate server action."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

# Before 2.56 the action's value is not looked at.
# 2.56: an admin may name the destination host.
migrate_v256 = {
    "type": "object",
    "properties": {
        "migrate": {
            "type": ["object", "null"],
            "properties": {"host": parameter_types.fqdn},
            "additionalProperties": False,
        }
    },
    "required": ["migrate"],
    "additionalProperties": False,
}

_host = {"oneOf": [{"type": "null"}, parameter_types.fqdn]}

# 2.1: the caller says whether to copy the disks and may overcommit them.
migrate_live = {
    "type": "object",
    "properties": {
        "os-migrateLive": {
            "type": "object",
            "properties": {
                "block_migration": parameter_types.boolean,
                "disk_over_commit": parameter_types.boolean,
                "host": _host,
            },
            "required": ["block_migration", "disk_over_commit", "host"],
            "additionalProperties": False,
        }
    },
    "required": ["os-migrateLive"],
    "additionalProperties": False,
}

_block_migration_auto = {"oneOf": [parameter_types.boolean, {"enum": ["auto"]}]}

# 2.25: block_migration may be "auto"; disk_over_commit is gone.
migrate_live_v225 = {
    "type": "object",
    "properties": {
        "os-migrateLive": {
            "type": "object",
            "properties": {
                "block_migration": _block_migration_auto,
                "host": _host,
            },
            "required": ["block_migration", "host"],
            "additionalProperties": False,
        }
    },
    "required": ["os-migrateLive"],
    "additionalProperties": False,
}

# 2.30: force skips the scheduler's check of the named host (until 2.67).
migrate_live_v230 = copy.deepcopy(migrate_live_v225)
migrate_live_v230["properties"]["os-migrateLive"]["properties"]["force"] = (
    parameter_types.boolean
)
