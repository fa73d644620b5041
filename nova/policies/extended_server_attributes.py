"""Who sees the host-level attributes of a server (``OS-EXT-SRV-ATTR:*``)."""

from oslo_policy import policy

from nova.policies import base

BASE_POLICY_NAME = "os_compute_api:os-extended-server-attributes"

rules = [
    policy.DocumentedRuleDefault(
        name=BASE_POLICY_NAME,
        check_str=base.ADMIN,
        description="Return extended attributes for server: host, "
        "hypervisor_hostname, instance_name, reservation_id, launch_index, "
        "hostname (before 2.90), kernel_id, ramdisk_id, root_device_name and "
        "user_data (2.3+).",
        operations=[
            {"method": "GET", "path": "/servers/{id}"},
            {"method": "GET", "path": "/servers/detail"},
            {"method": "PUT", "path": "/servers/{server_id}"},
        ],
        scope_types=base.PROJECT_SCOPE,
    ),
]


def list_rules():
    return rules
