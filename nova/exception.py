"""Nova's exception hierarchy.

Every error the services raise on purpose is a ``NovaException`` subclass. A
class declares a message template (``msg_fmt``) filled from keyword arguments
and the HTTP status (``code``) the API layer answers with, so the mapping to a
fault body happens once, in the API, and not at every raise site.
"""

from __future__ import annotations

import logging

LOG = logging.getLogger(__name__)


class NovaException(Exception):
    """Base class: a formatted message plus the HTTP status it maps to."""

    msg_fmt = "An unknown exception occurred."
    code = 500

    def __init__(self, message: str | None = None, **kwargs) -> None:
        self.kwargs = kwargs
        self.kwargs.setdefault("code", self.code)
        if message is None:
            try:
                message = self.msg_fmt % kwargs
            except (KeyError, TypeError, ValueError):
                # A raise site that forgot an argument must not turn into a
                # second, more confusing error; keep the template and say so.
                LOG.warning(
                    "Could not format %s message %r with %r",
                    type(self).__name__,
                    self.msg_fmt,
                    sorted(kwargs),
                )
                message = self.msg_fmt
        self.message = message
        super().__init__(message)

    def format_message(self) -> str:
        """The user-facing message (the API puts it in the fault body)."""
        return self.message


# 400 ---------------------------------------------------------------------


class Invalid(NovaException):
    msg_fmt = "Bad Request - Invalid Parameters"
    code = 400


class InvalidInput(Invalid):
    msg_fmt = "Invalid input received: %(reason)s"


class InvalidTransportURL(Invalid):
    msg_fmt = "Invalid transport URL %(url)s: %(reason)s"


class InvalidDatabaseConnection(Invalid):
    msg_fmt = "Invalid database connection %(url)s: %(reason)s"


class MarkerNotFound(Invalid):
    msg_fmt = "Marker %(marker)s could not be found."


class DatabaseNotConfigured(Invalid):
    msg_fmt = "[%(group)s] connection is not set in the configuration"


# 404 ---------------------------------------------------------------------


class NotFound(NovaException):
    msg_fmt = "Resource could not be found."
    code = 404


class CellMappingNotFound(NotFound):
    msg_fmt = "Cell %(uuid)s has no mapping."


class HostMappingNotFound(NotFound):
    msg_fmt = "Host '%(name)s' is not mapped to any cell"


class InstanceMappingNotFound(NotFound):
    msg_fmt = "Instance %(uuid)s has no mapping to a cell."


class InstanceNotFound(NotFound):
    msg_fmt = "Instance %(instance_id)s could not be found."


class HostNotFound(NotFound):
    msg_fmt = "Host %(host)s could not be found."


class ComputeHostNotFound(NotFound):
    msg_fmt = "Compute host %(host)s could not be found."


class ServiceNotFound(NotFound):
    msg_fmt = "Service %(service_id)s could not be found."


# 409 ---------------------------------------------------------------------


class Conflict(NovaException):
    msg_fmt = "Conflict"
    code = 409


class AggregateNotFound(NotFound):
    msg_fmt = "Aggregate %(aggregate_id)s could not be found."


class AggregateHostNotFound(NotFound):
    msg_fmt = "Aggregate %(aggregate_id)s has no host %(host)s."


class AggregateMetadataNotFound(NotFound):
    msg_fmt = "Aggregate %(aggregate_id)s has no metadata with key %(metadata_key)s."


class InstanceGroupNotFound(NotFound):
    msg_fmt = "Instance group %(group_uuid)s could not be found."


class AggregateNameExists(Conflict):
    msg_fmt = "Aggregate %(aggregate_name)s already exists."


class AggregateHostExists(Conflict):
    msg_fmt = "Aggregate %(aggregate_id)s already has host %(host)s."


class InstanceGroupIdExists(Conflict):
    msg_fmt = "Instance group %(group_uuid)s already exists."


class InvalidAggregateAction(Invalid):
    msg_fmt = "Unacceptable parameters."


class InvalidAggregateActionAdd(InvalidAggregateAction):
    msg_fmt = "Cannot add host to aggregate %(aggregate_id)s. Reason: %(reason)s."
    # Upstream answers a refused add_host with 409, unlike the other actions.
    code = 409


class InvalidAggregateActionDelete(InvalidAggregateAction):
    msg_fmt = "Cannot remove aggregate %(aggregate_id)s. Reason: %(reason)s."


class InvalidAggregateActionUpdate(InvalidAggregateAction):
    msg_fmt = "Cannot update aggregate %(aggregate_id)s. Reason: %(reason)s."


class InvalidAggregateActionUpdateMeta(InvalidAggregateAction):
    msg_fmt = (
        "Cannot update metadata of aggregate %(aggregate_id)s. Reason: %(reason)s."
    )


class CellMappingExists(Conflict):
    msg_fmt = "Cell %(uuid)s is already mapped."


class HostMappingExists(Conflict):
    msg_fmt = "Host '%(name)s' mapping already exists"


class InstanceMappingExists(Conflict):
    msg_fmt = "Instance %(uuid)s is already mapped to a cell."


class ObjectActionError(NovaException):
    msg_fmt = "Object action %(action)s failed because: %(reason)s"


# Compute, scheduling and service runtime --------------------------------


class InstanceInvalidState(Invalid):
    msg_fmt = (
        "Instance %(instance_uuid)s in %(attr)s %(state)s. Cannot %(method)s "
        "while the instance is in this state."
    )
    code = 409


class UnexpectedTaskStateError(InstanceInvalidState):
    msg_fmt = (
        "Conflict updating instance %(instance_uuid)s. Expected: %(expected)s. "
        "Actual: %(actual)s"
    )


class UnexpectedDeletingTaskStateError(UnexpectedTaskStateError):
    pass


class UnexpectedVMStateError(InstanceInvalidState):
    msg_fmt = (
        "Conflict updating instance %(instance_uuid)s. Expected vm_state: "
        "%(expected)s. Actual: %(actual)s"
    )


class InstanceExists(Conflict):
    msg_fmt = "Instance %(name)s already exists."


class BuildRequestNotFound(NotFound):
    msg_fmt = "BuildRequest not found for instance %(uuid)s"


class BuildRequestExists(Conflict):
    msg_fmt = "A build request already exists for instance %(uuid)s"


class RequestSpecNotFound(NotFound):
    msg_fmt = "RequestSpec not found for instance %(instance_uuid)s"


class InstanceActionNotFound(NotFound):
    msg_fmt = (
        "Action for request_id %(request_id)s on instance %(instance_uuid)s not found"
    )


class InstanceActionEventNotFound(NotFound):
    msg_fmt = "Event %(event)s not found for action id %(action_id)s"


class ComputeHostNotCreated(NotFound):
    msg_fmt = "Compute host %(name)s needs to be created first before updating."


class ServiceBinaryExists(Conflict):
    msg_fmt = "Service with host %(host)s binary %(binary)s exists."


class ServiceTopicExists(Conflict):
    msg_fmt = "Service with host %(host)s topic %(topic)s exists."


class TagNotFound(NotFound):
    msg_fmt = "Instance %(instance_id)s has no tag '%(tag)s'"


class NoValidHost(NovaException):
    msg_fmt = "No valid host was found. %(reason)s"


class MaxRetriesExceeded(NoValidHost):
    msg_fmt = "Exceeded maximum number of retries. %(reason)s"


class BuildAbortException(NovaException):
    msg_fmt = "Build of instance %(instance_uuid)s aborted: %(reason)s"


class RescheduledException(NovaException):
    msg_fmt = "Build of instance %(instance_uuid)s was re-scheduled: %(reason)s"


class InstanceNotRunning(Invalid):
    msg_fmt = "Instance %(instance_id)s is not running."


class HypervisorUnavailable(NovaException):
    msg_fmt = "The hypervisor is unavailable: %(reason)s"


class InstanceNotReady(InstanceInvalidState):
    msg_fmt = "Instance %(instance_id)s is not ready"


class UnsupportedRescueImage(Invalid):
    msg_fmt = "Requested rescue image '%(image)s' is not supported"


class UnshelveInstanceInvalidState(InstanceInvalidState):
    msg_fmt = (
        "The availability_zone or host of instance %(instance_uuid)s can only "
        "be given to unshelve it when it is SHELVED_OFFLOADED."
    )


class InstanceNotRescuable(Invalid):
    msg_fmt = "Instance %(instance_id)s cannot be rescued: %(reason)s"


class ImageDownloadFailed(NovaException):
    msg_fmt = "Could not download image %(image_id)s: %(reason)s"


class ConsoleTypeUnavailable(Invalid):
    msg_fmt = "Unavailable console type %(console_type)s."


class SocketPortRangeExhaustedException(Invalid):
    msg_fmt = "Not able to acquire a free port for %(host)s"


class ComputeServiceUnavailable(NovaException):
    msg_fmt = "Compute service of %(host)s is unavailable at this time."
    code = 503


class ClassNotFound(NotFound):
    msg_fmt = "Class %(class_name)s could not be found: %(exception)s"


class DriverNotConfigured(NovaException):
    msg_fmt = "No virt driver configured: set [DEFAULT] compute_driver (%(reason)s)"


class InvalidRPCVersion(Invalid):
    msg_fmt = "Invalid RPC version cap %(value)s for %(service)s: %(reason)s"


class ServiceTooOld(NovaException):
    msg_fmt = (
        "This service is older (v%(thisver)i) than the minimum "
        "(v%(minver)i) version of the rest of the deployment. Unable to "
        "continue."
    )


class RPCPinnedToOldVersion(NovaException):
    # The cloud is part way through an upgrade: the request may succeed
    # once every service speaks the newer version.
    msg_fmt = (
        "RPC is pinned to old version: this request needs %(api)s RPC "
        "version %(version)s, above the cap %(cap)s ([upgrade_levels] "
        "%(option)s)"
    )
    code = 409


# Compute API ---------------------------------------------------------------


class InvalidAPIVersionString(Invalid):
    msg_fmt = (
        "API Version String %(version)s is of invalid format. Must be of "
        "format MajorNum.MinorNum."
    )


class InvalidGlobalAPIVersion(NovaException):
    msg_fmt = (
        "Version %(req_ver)s is not supported by the API. Minimum is "
        "%(min_ver)s and maximum is %(max_ver)s."
    )
    code = 406


class VersionNotFoundForAPIMethod(NotFound):
    msg_fmt = "API version %(version)s is not supported on this method."


class ValidationError(Invalid):
    msg_fmt = "%(detail)s"


class ProjectNotFoundInKeystone(Invalid):
    msg_fmt = "Project ID %(project_id)s is not a valid project."


class IdentityEndpointNotFound(Invalid):
    # Upstream answers 400 for a deployment whose catalog lacks Keystone.
    msg_fmt = "Nova was unable to find Keystone service endpoint."


class MalformedRequestBody(Invalid):
    msg_fmt = "Malformed message body: %(reason)s"


class InvalidContentType(NovaException):
    msg_fmt = "Invalid content type %(content_type)s."
    code = 415


class ProjectIdMismatch(Invalid):
    msg_fmt = (
        "Malformed request URL: URL's project_id '%(project_id)s' doesn't "
        "match Context's project_id '%(context_project_id)s'"
    )


class NotAuthenticated(NovaException):
    msg_fmt = "Authentication required"
    code = 401


class Forbidden(NovaException):
    msg_fmt = "Forbidden"
    code = 403


class PolicyNotAuthorized(Forbidden):
    msg_fmt = "Policy doesn't allow %(action)s to be performed."


class MethodNotAllowed(NovaException):
    msg_fmt = "The method %(method)s is not allowed for this resource."
    code = 405


class FlavorNotFound(NotFound):
    msg_fmt = "Flavor %(flavor_id)s could not be found."


class FlavorExists(Conflict):
    msg_fmt = "Flavor with name %(name)s already exists."


class FlavorIdExists(Conflict):
    msg_fmt = "Flavor with ID %(flavor_id)s already exists."


class InvalidFlavorRef(Invalid):
    msg_fmt = "Invalid flavorRef provided."


class FlavorDiskTooSmall(Invalid):
    msg_fmt = "The created instance's disk would be too small."


class FlavorMemoryTooSmall(Invalid):
    msg_fmt = "Flavor's memory is too small for requested image."


class ImageNotFound(NotFound):
    msg_fmt = "Image %(image_id)s could not be found."


class RequestedImageNotFound(Invalid):
    msg_fmt = "Can not find requested image"


class ImageNotActive(Invalid):
    msg_fmt = "Image %(image_id)s is not active."


class ImageServiceUnavailable(NovaException):
    msg_fmt = "The image service is unavailable: %(reason)s"
    code = 503


class ImageNotAuthorized(Forbidden):
    msg_fmt = "Not authorized for image %(image_id)s."


class ImageBadRequest(Invalid):
    msg_fmt = "Request of image %(image_id)s is invalid: %(response)s"


class ImageUploadFailed(NovaException):
    msg_fmt = "Could not upload the data of image %(image_id)s: %(reason)s"


class ImageUnacceptable(Invalid):
    msg_fmt = "Image %(image_id)s is unacceptable: %(reason)s"


class InvalidBDMFormat(Invalid):
    msg_fmt = "Block Device Mapping is Invalid: %(details)s"


class InvalidKeyName(Invalid):
    msg_fmt = "Invalid key_name provided."


class NetworkRequestsNotSupported(Invalid):
    msg_fmt = (
        "Requesting specific networks is not supported: this deployment has "
        "no network service. Use networks 'none' or 'auto'."
    )


class NetworkNotFound(NotFound):
    msg_fmt = "Network %(network_id)s could not be found."


class PortNotFound(NotFound):
    msg_fmt = "Port id %(port_id)s could not be found."


class SecurityGroupNotFound(NotFound):
    msg_fmt = "Security group %(security_group_id)s not found."


class PortInUse(Conflict):
    msg_fmt = "Port %(port_id)s is still in use."


class NetworkAmbiguous(Conflict):
    msg_fmt = (
        "More than one possible network found. Specify network ID(s) to "
        "select which one(s) to connect to."
    )


class FixedIpAlreadyInUse(Invalid):
    msg_fmt = (
        "Fixed IP address %(address)s is already in use on instance %(instance_uuid)s."
    )


class NoMoreFixedIps(NovaException):
    msg_fmt = "No fixed IP addresses available for network: %(net)s"
    # A build fails with it on its host; an attach or addFixedIp answers 400.
    code = 400


class PortRequiresFixedIP(Invalid):
    msg_fmt = "Port %(port_id)s requires a FixedIP in order to be used."


class NetworkRequiresSubnet(Invalid):
    msg_fmt = (
        "Network %(network_uuid)s requires a subnet in order to boot instances on."
    )


class MultiplePortsNotApplicable(Invalid):
    msg_fmt = "Failed to launch instances: %(reason)s"


class UnableToAutoAllocateNetwork(Invalid):
    msg_fmt = "Unable to automatically allocate a network for project %(project_id)s"


class NetworkServiceUnavailable(NovaException):
    msg_fmt = "The network service is unavailable: %(reason)s"
    code = 503


class PortBindingFailed(NovaException):
    msg_fmt = (
        "Binding failed for port %(port_id)s, please check neutron logs for "
        "more information."
    )


class NetworkServiceNotConfigured(Invalid):
    msg_fmt = "This deployment has no network service: %(what)s cannot be used."


class InterfaceAttachFailedNoNetwork(Invalid):
    msg_fmt = (
        "No specific network was requested and none are available for "
        "project '%(project_id)s'."
    )


class AttachInterfaceNotSupported(Invalid):
    msg_fmt = "Attaching interfaces is not supported for instance %(instance_uuid)s."


class VirtualInterfacePlugException(NovaException):
    msg_fmt = "Virtual interface plugin failed: %(reason)s"


class InterfaceAttachFailed(NovaException):
    msg_fmt = "Failed to attach network adapter device to %(instance_uuid)s"


class InterfaceDetachFailed(NovaException):
    msg_fmt = "Failed to detach network adapter device from %(instance_uuid)s"


class SecurityGroupExists(Invalid):
    msg_fmt = "Security group %(security_group_name)s already exists."


class SecurityGroupInUse(Conflict):
    msg_fmt = "Security group %(security_group_id)s is in use: %(reason)s"


class SecurityGroupRuleExists(Invalid):
    msg_fmt = "Security group rule already exists. Group id is %(rule)s."


class SecurityGroupLimitExceeded(Forbidden):
    msg_fmt = "Quota exceeded, too many security groups or rules: %(reason)s"


class SecurityGroupRuleNotFound(NotFound):
    msg_fmt = "Rule (%(rule_id)s) not found."


class SecurityGroupCannotBeApplied(Invalid):
    msg_fmt = (
        "Network requires port_security_enabled and subnet associated in "
        "order to apply security groups."
    )


class SecurityGroupExistsForInstance(Invalid):
    msg_fmt = (
        "Security group %(security_group_id)s is already associated with the "
        "instance %(instance_id)s"
    )


class SecurityGroupNotExistsForInstance(Invalid):
    msg_fmt = (
        "Security group %(security_group_id)s is not associated with the "
        "instance %(instance_id)s"
    )


class NoUniqueMatch(Conflict):
    msg_fmt = "No Unique Match Found."


class FloatingIpNotFound(NotFound):
    msg_fmt = "Floating IP not found for ID %(id)s."


class FloatingIpNotFoundForAddress(NotFound):
    msg_fmt = "floating IP not found"


class FloatingIpPoolNotFound(NotFound):
    msg_fmt = "Floating IP pool not found."


class NoMoreFloatingIps(NotFound):
    msg_fmt = "No more floating IPs available."


class FloatingIpLimitExceeded(Forbidden):
    msg_fmt = "IP allocation over quota in pool %(pool)s."


class FloatingIpAssociateFailed(Invalid):
    msg_fmt = "Unable to associate floating IP: %(reason)s"


class FloatingIpNotAssociatedWithInstance(Conflict):
    msg_fmt = "Floating IP %(address)s is not associated with instance %(id)s."


class FixedIpNotFoundForInstance(Invalid):
    msg_fmt = "No fixed IPs associated to instance"


class FixedIpNotFoundForSpecificInstance(Invalid):
    msg_fmt = "Specified fixed address not assigned to instance"


class NetworkNotFoundForInstance(Invalid):
    msg_fmt = "Network %(network_id)s is not a network of instance %(instance_uuid)s"


class VolumeServiceNotConfigured(Invalid):
    msg_fmt = (
        "Block storage is not configured: this deployment has no volume "
        "service, so volume, snapshot and blank devices cannot be used."
    )


class VolumeNotFound(NotFound):
    msg_fmt = "Volume %(volume_id)s could not be found."


class InvalidVolume(Invalid):
    msg_fmt = "Invalid volume: %(reason)s"


class VolumeAttachmentNotFound(NotFound):
    msg_fmt = "Volume attachment %(attachment_id)s could not be found."


class VolumeNotAttached(NotFound):
    msg_fmt = "Volume %(volume_id)s is not attached to the instance."


class VolumeBDMNotFound(NotFound):
    msg_fmt = "No volume block device mapping with id %(volume_id)s."


class VolumeAlreadyAttached(Conflict):
    msg_fmt = "Volume %(volume_id)s is already attached to this instance."


class VolumeAZMismatch(Invalid):
    msg_fmt = (
        "Server and volumes are not in the same availability zone: the "
        "server is in %(instance_az)s and volume %(volume_id)s in "
        "%(volume_az)s."
    )


class VolumeServiceUnavailable(NovaException):
    msg_fmt = "The block storage service is unavailable: %(reason)s"
    code = 503


class InvalidFilter(Invalid):
    msg_fmt = "Invalid %(name)s filter [%(value)s]"


class InvalidInstanceStatus(Invalid):
    msg_fmt = "Invalid status value"


class CellTimeout(NovaException):
    msg_fmt = "Timed out waiting for a response from cell %(cell_uuid)s"
    code = 503


# Key pairs ---------------------------------------------------------------


class KeypairNotFound(NotFound):
    msg_fmt = "Keypair %(name)s not found for user %(user_id)s"


class KeyPairExists(Conflict):
    msg_fmt = "Key pair '%(key_name)s' already exists."


class InvalidKeypair(Invalid):
    msg_fmt = "Keypair data is invalid: %(reason)s"


# Quotas ------------------------------------------------------------------


class OverQuota(Forbidden):
    """A request would take a project (or user) past one of its limits.

    ``overs`` names the resources; ``usages`` and ``quotas`` give, per
    resource, what is in use and the limit, so callers can phrase the
    refusal the way their API does.
    """

    msg_fmt = "Quota exceeded for resources: %(overs)s"


class TooManyInstances(Forbidden):
    msg_fmt = (
        "Quota exceeded for %(overs)s: Requested %(req)s, but already used "
        "%(used)s of %(allowed)s %(overs)s"
    )


class KeypairLimitExceeded(Forbidden):
    msg_fmt = "Quota exceeded, too many key pairs."


class ServerGroupLimitExceeded(Forbidden):
    msg_fmt = "Quota exceeded, too many server groups."


class GroupMemberLimitExceeded(Forbidden):
    msg_fmt = "Quota exceeded, too many servers in group"


class QuotaResourceUnknown(NotFound):
    msg_fmt = "Unknown quota resources %(unknown)s."


class InvalidQuotaValue(Invalid):
    msg_fmt = (
        "Change would make usage less than 0 for the following resources: %(unders)s"
    )


# Flavor extra specs and access -------------------------------------------


class FlavorExtraSpecsNotFound(NotFound):
    msg_fmt = "Flavor %(flavor_id)s has no extra specs with key %(extra_specs_key)s."


class FlavorAccessExists(Conflict):
    msg_fmt = (
        "Flavor access already exists for flavor %(flavor_id)s and project "
        "%(project_id)s combination."
    )


class FlavorAccessNotFound(NotFound):
    msg_fmt = "Flavor access not found for %(flavor_id)s / %(project_id)s combination."


class MetadataLimitExceeded(Forbidden):
    msg_fmt = "Maximum number of metadata items exceeds %(allowed)d"


class OnsetFileLimitExceeded(Forbidden):
    msg_fmt = "Personality file limit exceeded"


class OnsetFilePathLimitExceeded(OnsetFileLimitExceeded):
    msg_fmt = "Personality file path exceeds maximum %(allowed)s"


class OnsetFileContentLimitExceeded(OnsetFileLimitExceeded):
    msg_fmt = "Personality file content exceeds maximum %(allowed)s"


class ConfigDriveUnsupportedFormat(NovaException):
    msg_fmt = "Config drive format '%(format)s' is not supported: %(reason)s"


class ConfigDriveBuildFailed(NovaException):
    msg_fmt = "Could not build the config drive: %(reason)s"


class Gone(NovaException):
    # webob's wording, which upstream's removed APIs answer with.
    msg_fmt = "This resource is no longer available.  No forwarding address is given."
    code = 410


class InstanceInvalidStateForAction(Conflict):
    msg_fmt = (
        "Cannot '%(method)s' instance %(instance_uuid)s while it is in "
        "%(attr)s %(state)s"
    )


class MetadataItemNotFound(NotFound):
    msg_fmt = "Metadata item was not found"


class TooManyInstanceTags(Invalid):
    msg_fmt = "The number of tags exceeded the per-server limit %(limit)d"


class InvalidInstanceTag(Invalid):
    msg_fmt = (
        "Tag '%(tag)s' is invalid. It must be a non empty string without "
        "characters '/' and ','. Validation error message: %(reason)s"
    )


class ServiceNotUnique(Invalid):
    msg_fmt = "More than one possible service found."


class ServiceHostsInstances(Conflict):
    msg_fmt = (
        "Unable to delete compute service that is hosting instances. "
        "Migrate or delete the instances first."
    )


class ServiceHasInProgressMigrations(Conflict):
    msg_fmt = (
        "Unable to delete compute service that has in-progress migrations. "
        "Complete the migrations or delete the instances first."
    )


class ServiceResourceProviderInUse(Conflict):
    msg_fmt = (
        "Unable to delete the resource provider of compute node %(node)s in "
        "Placement: it still has allocations. %(reason)s"
    )


class TaskAlreadyRunning(NovaException):
    msg_fmt = "Task %(task_name)s is already running on host %(host)s"


class TaskNotRunning(NovaException):
    msg_fmt = "Task %(task_name)s is not running on host %(host)s"


class InstanceIsLocked(Conflict):
    msg_fmt = "Instance %(instance_uuid)s is locked"


class VendorDataUnavailable(NovaException):
    msg_fmt = "Dynamic vendor data target %(target)s did not answer."
    code = 503


class InvalidToken(NotFound):
    # The token itself is a secret: it never appears in the message.
    msg_fmt = "The console token is invalid or has expired."


class ConsoleTypeInvalid(Invalid):
    msg_fmt = "Invalid console type %(console_type)s"


class ConsoleDetailsNotAccessible(NovaException):
    msg_fmt = "The requested console type details are not accessible"
    code = 401


class InstancePasswordSetFailed(NovaException):
    msg_fmt = "Failed to set admin password on %(instance)s because %(reason)s"
    code = 409


class SetAdminPasswdNotSupported(NovaException):
    msg_fmt = "Set admin password is not supported"
    code = 409


class InstanceAgentNotEnabled(NovaException):
    msg_fmt = "Guest agent is not enabled for the instance"
    code = 409


class QemuGuestAgentNotEnabled(InstanceAgentNotEnabled):
    msg_fmt = "QEMU guest agent is not enabled"


class TriggerCrashDumpNotSupported(Invalid):
    msg_fmt = "Triggering crash dump is not supported"


class FeatureNotSupported(NovaException):
    """The request is valid, but this deployment's driver cannot do it."""

    msg_fmt = "The requested functionality is not supported."
    code = 501


# Moves (resize, migrations) ------------------------------------------------


class MigrationNotFound(NotFound):
    msg_fmt = "Migration %(migration_id)s could not be found."


class MigrationNotFoundForInstance(MigrationNotFound):
    msg_fmt = "Migration %(migration_id)s not found for instance %(instance_id)s"


class MigrationNotFoundByStatus(MigrationNotFound):
    msg_fmt = "Migration not found for instance %(instance_id)s with status %(status)s."


class InstanceNotResized(Invalid):
    """confirmResize or revertResize of a server with no finished resize."""

    msg_fmt = "Instance has not been resized."


class CannotResizeToSameFlavor(Invalid):
    msg_fmt = "Resize requires a flavor change."


class CannotResizeDisk(Invalid):
    msg_fmt = "Server disk was unable to be resized because: %(reason)s"


class InvalidMigrationState(Invalid):
    msg_fmt = (
        "Migration %(migration_id)s state of instance %(instance_uuid)s is "
        "%(state)s. Cannot %(method)s while the migration is in this state."
    )


class ComputeServiceInUse(Invalid):
    msg_fmt = "Compute service of %(host)s is still in use."


class CannotEvacuateToSameHost(Invalid):
    msg_fmt = "The target host can't be the same one."


class CannotMigrateToSameHost(Invalid):
    msg_fmt = "Cannot migrate to the host where the server exists."


class ResizeFlavorNotFound(Invalid):
    """The flavorRef of a resize names no (enabled) flavor."""

    msg_fmt = "Unable to locate requested flavor."


class NoValidHostForMove(Invalid):
    """The scheduler found no host for a resize or cold migration (400,
    where a build's NoValidHost ends in a fault)."""

    msg_fmt = "No valid host was found. %(reason)s"


class ResizeError(NovaException):
    msg_fmt = "Resize error: %(reason)s"


class InstanceFaultRollback(NovaException):
    """A move failed before it harmed the guest: the instance goes back to
    where it was (not ERROR), its fault the ``inner_exception``."""

    msg_fmt = "Instance rollback performed due to: %(reason)s"

    def __init__(self, inner_exception: Exception) -> None:
        self.inner_exception = inner_exception
        super().__init__(reason=str(inner_exception))
