"""Request schemas of the evacuate server action."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

# 2.1: the caller says whether the disks are on shared storage (then no
# new password may be given).
evacuate = {
    "type": "object",
    "properties": {
        "evacuate": {
            "type": "object",
            "properties": {
                "host": parameter_types.fqdn,
                "onSharedStorage": parameter_types.boolean,
                "adminPass": parameter_types.admin_password,
            },
            "required": ["onSharedStorage"],
            "additionalProperties": False,
        }
    },
    "required": ["evacuate"],
    "additionalProperties": False,
}

# 2.14: the host finds out about its storage itself.
evacuate_v214 = copy.deepcopy(evacuate)
del evacuate_v214["properties"]["evacuate"]["properties"]["onSharedStorage"]
del evacuate_v214["properties"]["evacuate"]["required"]

# 2.29: force skips the scheduler's check of the named host (until 2.67).
evacuate_v229 = copy.deepcopy(evacuate_v214)
evacuate_v229["properties"]["evacuate"]["properties"]["force"] = parameter_types.boolean
