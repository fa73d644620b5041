"""Request bodies of ``POST /servers/{server_id}/os-interface``."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

create = {
    "type": "object",
    "properties": {
        "interfaceAttachment": {
            "type": "object",
            "properties": {
                "net_id": parameter_types.uuid,
                "port_id": parameter_types.uuid,
                "fixed_ips": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 1,
                    "items": {
                        "type": "object",
                        "properties": {"ip_address": parameter_types.ip_address},
                        "required": ["ip_address"],
                        "additionalProperties": False,
                    },
                },
            },
            "additionalProperties": False,
        }
    },
    "additionalProperties": False,
}

# 2.49: a tag for the device in the guest's metadata.
create_v249 = copy.deepcopy(create)
create_v249["properties"]["interfaceAttachment"]["properties"]["tag"] = (
    parameter_types.tag
)
