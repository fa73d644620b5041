"""``/extensions``: the v2.0-era extension list, frozen as upstream froze it.

Extensions stopped meaning anything when microversions arrived; the list is
still served because clients and Tempest read it. Every entry carries the
same fixed namespace and date, as upstream's do.
"""

from __future__ import annotations

from nova import exception, policy
from nova.api.openstack.request import Request, json_response
from nova.policies import extensions as extension_policies

_NAMESPACE = "http://docs.openstack.org/compute/ext/fake_xml"
_UPDATED = "2014-12-03T00:00:00Z"

# (alias, name) of each extension the v2.1 API reports.
EXTENSIONS = (
    ("NMN", "Multinic"),
    ("OS-DCF", "DiskConfig"),
    ("OS-EXT-AZ", "ExtendedAvailabilityZone"),
    ("OS-EXT-IMG-SIZE", "ImageSize"),
    ("OS-EXT-IPS", "ExtendedIps"),
    ("OS-EXT-IPS-MAC", "ExtendedIpsMac"),
    ("OS-EXT-SRV-ATTR", "ExtendedServerAttributes"),
    ("OS-EXT-STS", "ExtendedStatus"),
    ("OS-FLV-DISABLED", "FlavorDisabled"),
    ("OS-FLV-EXT-DATA", "FlavorExtraData"),
    ("OS-SCH-HNT", "SchedulerHints"),
    ("OS-SRV-USG", "ServerUsage"),
    ("os-access-ips", "AccessIPs"),
    ("os-admin-actions", "AdminActions"),
    ("os-admin-password", "AdminPassword"),
    ("os-agents", "Agents"),
    ("os-aggregates", "Aggregates"),
    ("os-assisted-volume-snapshots", "AssistedVolumeSnapshots"),
    ("os-attach-interfaces", "AttachInterfaces"),
    ("os-availability-zone", "AvailabilityZone"),
    ("os-baremetal-ext-status", "BareMetalExtStatus"),
    ("os-baremetal-nodes", "BareMetalNodes"),
    ("os-block-device-mapping", "BlockDeviceMapping"),
    ("os-block-device-mapping-v2-boot", "BlockDeviceMappingV2Boot"),
    ("os-cell-capacities", "CellCapacities"),
    ("os-cells", "Cells"),
    ("os-certificates", "Certificates"),
    ("os-cloudpipe", "Cloudpipe"),
    ("os-cloudpipe-update", "CloudpipeUpdate"),
    ("os-config-drive", "ConfigDrive"),
    ("os-console-auth-tokens", "ConsoleAuthTokens"),
    ("os-console-output", "ConsoleOutput"),
    ("os-consoles", "Consoles"),
    ("os-create-backup", "CreateBackup"),
    ("os-create-server-ext", "Createserverext"),
    ("os-deferred-delete", "DeferredDelete"),
    ("os-evacuate", "Evacuate"),
    ("os-extended-evacuate-find-host", "ExtendedEvacuateFindHost"),
    ("os-extended-floating-ips", "ExtendedFloatingIps"),
    ("os-extended-hypervisors", "ExtendedHypervisors"),
    ("os-extended-networks", "ExtendedNetworks"),
    ("os-extended-quotas", "ExtendedQuotas"),
    ("os-extended-rescue-with-image", "ExtendedRescueWithImage"),
    ("os-extended-services", "ExtendedServices"),
    ("os-extended-services-delete", "ExtendedServicesDelete"),
    ("os-extended-status", "ExtendedStatus"),
    ("os-extended-volumes", "ExtendedVolumes"),
    ("os-fixed-ips", "FixedIPs"),
    ("os-flavor-access", "FlavorAccess"),
    ("os-flavor-extra-specs", "FlavorExtraSpecs"),
    ("os-flavor-manage", "FlavorManage"),
    ("os-flavor-rxtx", "FlavorRxtx"),
    ("os-flavor-swap", "FlavorSwap"),
    ("os-floating-ip-dns", "FloatingIpDns"),
    ("os-floating-ip-pools", "FloatingIpPools"),
    ("os-floating-ips", "FloatingIps"),
    ("os-floating-ips-bulk", "FloatingIpsBulk"),
    ("os-fping", "Fping"),
    ("os-hide-server-addresses", "HideServerAddresses"),
    ("os-hosts", "Hosts"),
    ("os-hypervisor-status", "HypervisorStatus"),
    ("os-hypervisors", "Hypervisors"),
    ("os-instance-actions", "InstanceActions"),
    ("os-instance_usage_audit_log", "OSInstanceUsageAuditLog"),
    ("os-keypairs", "Keypairs"),
    ("os-lock-server", "LockServer"),
    ("os-migrate-server", "MigrateServer"),
    ("os-migrations", "Migrations"),
    ("os-multiple-create", "MultipleCreate"),
    ("os-networks", "Networks"),
    ("os-networks-associate", "NetworkAssociationSupport"),
    ("os-pause-server", "PauseServer"),
    ("os-personality", "Personality"),
    ("os-preserve-ephemeral-rebuild", "PreserveEphemeralOnRebuild"),
    ("os-quota-class-sets", "QuotaClasses"),
    ("os-quota-sets", "Quotas"),
    ("os-rescue", "Rescue"),
    ("os-security-group-default-rules", "SecurityGroupDefaultRules"),
    ("os-security-groups", "SecurityGroups"),
    ("os-server-diagnostics", "ServerDiagnostics"),
    ("os-server-external-events", "ServerExternalEvents"),
    ("os-server-group-quotas", "ServerGroupQuotas"),
    ("os-server-groups", "ServerGroups"),
    ("os-server-list-multi-status", "ServerListMultiStatus"),
    ("os-server-password", "ServerPassword"),
    ("os-server-sort-keys", "ServerSortKeys"),
    ("os-server-start-stop", "ServerStartStop"),
    ("os-services", "Services"),
    ("os-shelve", "Shelve"),
    ("os-simple-tenant-usage", "SimpleTenantUsage"),
    ("os-suspend-server", "SuspendServer"),
    ("os-tenant-networks", "OSTenantNetworks"),
    ("os-used-limits", "UsedLimits"),
    ("os-used-limits-for-admin", "UsedLimitsForAdmin"),
    ("os-user-data", "UserData"),
    ("os-user-quotas", "UserQuotas"),
    ("os-virtual-interfaces", "VirtualInterfaces"),
    ("os-volume-attachment-update", "VolumeAttachmentUpdate"),
    ("os-volumes", "Volumes"),
)


def _extension(alias: str, name: str) -> dict:
    return {
        "alias": alias,
        "name": name,
        "description": f"{name} support.",
        "links": [],
        "namespace": _NAMESPACE,
        "updated": _UPDATED,
    }


def index(req: Request):
    policy.authorize(req.nova_context, extension_policies.BASE_POLICY_NAME)
    return json_response(
        {"extensions": [_extension(alias, name) for alias, name in EXTENSIONS]}
    )


def show(req: Request, alias: str):
    policy.authorize(req.nova_context, extension_policies.BASE_POLICY_NAME)
    for known, name in EXTENSIONS:
        if known == alias:
            return json_response({"extension": _extension(known, name)})
    raise exception.NotFound("Extension could not be found.")
