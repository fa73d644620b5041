"""Request bodies of ``POST /servers/{server_id}/os-volume_attachments``."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

create = {
    "type": "object",
    "properties": {
        "volumeAttachment": {
            "type": "object",
            "properties": {
                "volumeId": parameter_types.volume_id,
                "device": {
                    "type": ["string", "null"],
                    # A device path such as /dev/vdb, /dev/sdc or /dev/xvdd.
                    "pattern": "(^/dev/x{0,1}[a-z]{0,1}d{0,1})([a-z]+)[0-9]*$",
                },
            },
            "required": ["volumeId"],
            "additionalProperties": False,
        }
    },
    "required": ["volumeAttachment"],
    "additionalProperties": False,
}

# 2.49: a tag for the device in the guest's metadata.
create_v249 = copy.deepcopy(create)
create_v249["properties"]["volumeAttachment"]["properties"]["tag"] = parameter_types.tag

# 2.79: whether deleting the server deletes the volume.
create_v279 = copy.deepcopy(create_v249)
create_v279["properties"]["volumeAttachment"]["properties"]["delete_on_termination"] = (
    parameter_types.boolean
)
