"""The compute API: what nova-api does with servers, below HTTP.

Creating a server validates the request against the flavor and image,
writes for each instance a build request, a request spec and an instance
mapping (no cell yet) into the API database in one transaction, and hands
them to the superconductor, which schedules and creates them in a cell.
Until then a server exists only as its build request, and reads, updates
and deletes act on that.
"""

from __future__ import annotations

import logging
import re
import secrets
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import oslo_messaging
import sqlalchemy as sa
from oslo_utils import uuidutils

import nova.conf
import placement_client.exception as placement_exc
from nova import context as nova_context
from nova import exception, objects, placement, policy, quota, scatter_gather
from nova.compute import (
    instance_actions,
    instance_list,
    power_state,
    snapshot,
    task_states,
    vm_states,
)
from nova.db import engines
from nova.db.api import models as api_models
from nova.image import api as image_api
from nova.objects import base as obj_base
from nova.objects import flavor as flavor_obj  # noqa: F401  (registers Flavor)
from nova.objects import tag as tag_obj
from nova.policies import admin_actions as admin_actions_policies
from nova.policies import admin_password as admin_password_policies
from nova.policies import console_output as console_output_policies
from nova.policies import create_backup as create_backup_policies
from nova.policies import deferred_delete as deferred_delete_policies
from nova.policies import lock_server as lock_policies
from nova.policies import pause_server as pause_policies
from nova.policies import rescue as rescue_policies
from nova.policies import servers as server_policies
from nova.policies import shelve as shelve_policies
from nova.policies import suspend_server as suspend_policies

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Names of the servers of one multi-create request, as upstream names them.
MULTI_INSTANCE_NAME_TEMPLATE = "%(name)s-%(count)d"
# Sysmeta values live in a 255-character column.
SYSTEM_METADATA_MAX_LENGTH = 255

_GiB = 1024**3

# States in which a server's metadata (with no task running) and tags may
# change.
# States in which a guest can be told to dump its memory.
CRASH_DUMP_VM_STATES = (
    vm_states.ACTIVE,
    vm_states.PAUSED,
    vm_states.RESCUED,
    vm_states.RESIZED,
    vm_states.ERROR,
)
EDITABLE_VM_STATES = (
    vm_states.ACTIVE,
    vm_states.PAUSED,
    vm_states.SUSPENDED,
    vm_states.STOPPED,
)


@dataclass
class CreateRequest:
    """A validated ``POST /servers`` body, in compute terms."""

    name: str
    flavor_ref: str
    image_ref: str | None
    min_count: int = 1
    max_count: int = 1
    description: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    user_data: str | None = None
    key_name: str | None = None
    availability_zone: str | None = None
    tags: list[str] = field(default_factory=list)
    block_device_mapping_v2: list[dict] = field(default_factory=list)
    legacy_block_device_mapping: list[dict] = field(default_factory=list)
    # "none", "auto" or a list of requested networks.
    networks: str | list[dict] | None = None
    admin_password: str | None = None
    config_drive: bool = False
    access_ip_v4: str | None = None
    access_ip_v6: str | None = None
    auto_disk_config: bool = False
    scheduler_hints: dict[str, Any] = field(default_factory=dict)
    security_groups: list[str] = field(default_factory=list)
    hostname: str | None = None
    requested_host: str | None = None
    requested_hypervisor_hostname: str | None = None


def generate_password(length: int | None = None) -> str:
    """A random admin password of ``[DEFAULT] password_length`` characters."""
    alphabet = string.ascii_letters + string.digits
    length = CONF.password_length if length is None else length
    return "".join(secrets.choice(alphabet) for _ in range(length))


def _reservation_id() -> str:
    alphabet = string.ascii_lowercase + string.digits
    return "r-" + "".join(secrets.choice(alphabet) for _ in range(8))


def sanitize_hostname(name: str, default_name: str | None = None) -> str:
    """A DNS label from a server name: lower case, ``-`` for blanks, dots and
    underscores, nothing but word characters, at most 63 characters."""
    # Characters beyond Latin-1 have no sensible transliteration here.
    hostname = name.encode("latin-1", "ignore").decode("latin-1")[:63]
    hostname = re.sub(r"[ _.]", "-", hostname)
    hostname = re.sub(r"[^\w.-]+", "", hostname).lower().strip(".-")
    if not hostname and default_name is not None:
        return default_name[:63]
    return hostname


def image_system_metadata(image: dict[str, Any] | None) -> dict[str, str]:
    """What an instance remembers of its image: ``image_<property>`` keys."""
    if not image:
        return {}
    values: dict[str, Any] = {
        "base_image_ref": image.get("id"),
        "min_ram": image.get("min_ram"),
        "min_disk": image.get("min_disk"),
        "disk_format": image.get("disk_format"),
        "container_format": image.get("container_format"),
    }
    for key, value in (image.get("properties") or {}).items():
        if key not in CONF.non_inheritable_image_properties:
            values[key] = value
    return {
        f"image_{key}": str(value)[:SYSTEM_METADATA_MAX_LENGTH]
        for key, value in values.items()
        if value is not None
    }


# States in which a server's disk may be saved as an image.
SNAPSHOT_VM_STATES = (
    vm_states.ACTIVE,
    vm_states.STOPPED,
    vm_states.PAUSED,
    vm_states.SUSPENDED,
)

# States from which a server may be rebuilt.
REBUILD_VM_STATES = (vm_states.ACTIVE, vm_states.STOPPED, vm_states.ERROR)

# What a hard reboot may interrupt, as upstream: a stuck soft reboot or an
# operation that hung in the guest.
HARD_REBOOT_TASK_STATES = (
    None,
    task_states.REBOOTING,
    task_states.REBOOTING_HARD,
    task_states.PAUSING,
    task_states.UNPAUSING,
    task_states.SUSPENDING,
    task_states.RESUMING,
)
HARD_REBOOT_VM_STATES = (
    vm_states.ACTIVE,
    vm_states.STOPPED,
    vm_states.PAUSED,
    vm_states.SUSPENDED,
    vm_states.ERROR,
)


def check_instance_state(
    instance, method: str, vm_state: Iterable[str], task_state: Iterable[str | None]
) -> None:
    """:raises InstanceInvalidState: (409) ``method`` is not allowed in the
    instance's vm_state or task_state."""
    for attr, allowed in (("vm_state", vm_state), ("task_state", task_state)):
        value = getattr(instance, attr, None) if attr in instance else None
        if value not in allowed:
            raise exception.InstanceInvalidState(
                instance_uuid=instance.uuid, attr=attr, state=value, method=method
            )


def _check_no_task(instance, method: str) -> None:
    """:raises InstanceInvalidState: (409) a task runs on the instance."""
    task_state = instance.task_state if "task_state" in instance else None
    if task_state is not None:
        raise exception.InstanceInvalidState(
            instance_uuid=instance.uuid,
            attr="task_state",
            state=task_state,
            method=method,
        )


def _target(instance) -> dict[str, Any]:
    return {"project_id": instance.project_id, "user_id": instance.user_id}


def check_metadata_quota(context, metadata: dict) -> None:
    """A server's metadata fits the project's ``metadata_items`` limit.

    :raises MetadataLimitExceeded: it has too many items.
    """
    try:
        quota.enforce(context, {"metadata_items": len(metadata)}, context.project_id)
    except exception.OverQuota as exc:
        raise exception.MetadataLimitExceeded(
            allowed=exc.kwargs["quotas"]["metadata_items"]
        ) from exc


def _instance_deltas(flavor, count: int) -> dict[str, int]:
    """What ``count`` instances of ``flavor`` add to the counted quotas."""
    return {
        "instances": count,
        "cores": count * flavor.vcpus,
        "ram": count * flavor.memory_mb,
    }


def _instances_that_fit(exc: exception.OverQuota, per_instance: dict) -> int:
    """How many instances of ``per_instance`` size fit in the headroom the
    refusal ``exc`` reports."""
    headroom = []
    for resource, size in per_instance.items():
        limit = exc.kwargs["quotas"][resource]
        if limit == quota.UNLIMITED or size == 0:
            continue
        free = max(limit - exc.kwargs["usages"][resource], 0)
        headroom.append(free // size)
    return min(headroom) if headroom else 0


class API:
    """Server operations, each authorized by the caller of the HTTP API."""

    def __init__(self, image: image_api.ImageAPI | None = None) -> None:
        self.image_api = image or image_api.get_image_api()

    # -- collaborators over RPC, imported when first needed -----------------

    @staticmethod
    def _compute_task_api():
        from nova.conductor import api as conductor_api

        return conductor_api.ComputeTaskAPI()

    @staticmethod
    def _compute_rpcapi():
        from nova.compute import rpcapi as compute_rpcapi

        return compute_rpcapi.ComputeAPI()

    # -- availability zones ----------------------------------------------

    def compute_services(self, context) -> list[tuple[Any, Any]]:
        """(cell mapping, service) of every nova-compute in every cell,
        with its availability zone set."""
        results = scatter_gather.scatter_gather_all_cells(
            context,
            lambda cctxt: objects.ServiceList.get_all(cctxt, set_zones=True),
        )
        services = []
        for cell, result in results:
            if isinstance(result, BaseException):
                LOG.warning("Cell %s did not list its services: %s", cell.uuid, result)
                continue
            services.extend((cell, s) for s in result if s.binary == "nova-compute")
        return services

    def available_zones(self, context) -> set[str]:
        """Zones with at least one enabled compute service."""
        return {
            service.availability_zone
            for _, service in self.compute_services(context)
            if not service.disabled and service.availability_zone
        }

    @staticmethod
    def default_availability_zone() -> str:
        return CONF.default_availability_zone

    @staticmethod
    def host_zones(context) -> dict[str, str]:
        """host -> availability zone, for hosts in zoned aggregates (the
        others are in the default zone)."""
        from nova.objects.service import compute_host_availability_zones

        return compute_host_availability_zones(context)

    @staticmethod
    def service_is_up(service) -> bool:
        from nova import servicegroup

        return servicegroup.service_is_up(service)

    def compute_services_by_host(self, context, instances) -> dict[str, Any]:
        """host -> nova-compute service, for the hosts of ``instances``."""
        hosts = {i.host for i in instances if "host" in i and i.host}
        if not hosts:
            return {}
        return {
            service.host: service
            for _, service in self.compute_services(context)
            if service.host in hosts
        }

    @staticmethod
    def request_specs(context, instance_uuids: Sequence[str]) -> dict[str, Any]:
        """instance uuid -> its request spec, in one query."""
        if not instance_uuids:
            return {}
        model = api_models.RequestSpec
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(
                sa.select(model).where(model.instance_uuid.in_(list(instance_uuids)))
            ).all()
        return {
            row.instance_uuid: objects.RequestSpec._from_db_object(
                context, objects.RequestSpec(), row
            )
            for row in rows
        }

    # -- create -------------------------------------------------------------

    def _get_flavor(self, context, flavor_ref: str):
        # flavorRef may also be a URL ending in the flavor id.
        flavor_id = str(flavor_ref).rstrip("/").rsplit("/", 1)[-1]
        try:
            return objects.Flavor.get_by_flavor_id(context, flavor_id)
        except exception.FlavorNotFound as exc:
            raise exception.InvalidFlavorRef() from exc

    def _get_image(self, context, image_id: str) -> dict[str, Any]:
        try:
            image = self.image_api.show(context, image_id)
        except exception.ImageNotFound as exc:
            raise exception.RequestedImageNotFound() from exc
        if image.get("status") != "active":
            raise exception.ImageNotActive(image_id=image_id)
        return image

    @staticmethod
    def _check_flavor_fits_image(context, flavor, image: dict[str, Any]) -> None:
        if image.get("min_ram", 0) > flavor.memory_mb:
            raise exception.FlavorMemoryTooSmall()
        if flavor.root_gb == 0:
            # The root disk would take the image's size: only admins may.
            policy.authorize(
                context, server_policies.SERVERS % "create:zero_disk_flavor"
            )
            return
        if image.get("min_disk", 0) > flavor.root_gb:
            raise exception.FlavorDiskTooSmall()
        for size_key in ("size", "virtual_size"):
            if (image.get(size_key) or 0) > flavor.root_gb * _GiB:
                raise exception.FlavorDiskTooSmall()

    @staticmethod
    def _boot_image_id(request: CreateRequest) -> str | None:
        """The image the root disk is made from.

        Only an image copied to a local disk is supported: volumes need a
        block storage service this deployment does not have yet.
        """
        if request.legacy_block_device_mapping:
            raise exception.InvalidBDMFormat(
                details="block_device_mapping (volumes) is not supported"
            )
        image_id = request.image_ref or None
        for bdm in request.block_device_mapping_v2:
            source = bdm.get("source_type")
            destination = bdm.get("destination_type", "local")
            boot_index = bdm.get("boot_index")
            boot_index = None if boot_index is None else int(boot_index)
            if source != "image" or destination != "local" or boot_index != 0:
                raise exception.InvalidBDMFormat(
                    details="only an image booted to a local disk is supported; "
                    "volume, snapshot and blank devices need a block storage "
                    "service"
                )
            bdm_image = bdm.get("uuid") or bdm.get("image_id")
            if image_id and bdm_image and bdm_image != image_id:
                raise exception.InvalidBDMFormat(
                    details="the boot image of block_device_mapping_v2 differs "
                    "from imageRef"
                )
            image_id = image_id or bdm_image
        if image_id is None:
            raise exception.InvalidBDMFormat(details="no image to boot from")
        return image_id

    def _key_data(self, context, key_name: str | None) -> str | None:
        if key_name is None:
            return None
        keypair = api_models.KeyPair
        with engines.transaction(context.api_db_connection) as session:
            public_key = session.scalar(
                sa.select(keypair.public_key).where(
                    keypair.user_id == context.user_id, keypair.name == key_name
                )
            )
        if public_key is None:
            raise exception.InvalidKeyName()
        return public_key

    def _check_availability_zone(
        self, context, request: CreateRequest
    ) -> tuple[str | None, list[str] | None, list[str] | None]:
        """The zone to schedule in, and the forced host and node if an admin
        asked for one with ``zone:host[:node]``."""
        zone = request.availability_zone
        forced_host = forced_node = None
        if zone and ":" in zone:
            zone, _, forced = zone.partition(":")
            forced_host, _, forced_node = forced.partition(":")
            policy.authorize(context, server_policies.SERVERS % "create:forced_host")
            zone = zone or None
        if zone is None:
            zone = CONF.default_schedule_zone
        elif zone not in self.available_zones(context):
            raise exception.Invalid("The requested availability zone is not available")
        return (
            zone,
            [forced_host] if forced_host else None,
            [forced_node] if forced_node else None,
        )

    def _check_networks(self, context, networks) -> str:
        if isinstance(networks, list):
            policy.authorize(context, server_policies.SERVERS % "create:attach_network")
            if networks:
                raise exception.NetworkRequestsNotSupported()
            return "none"
        # Without a network service "auto" allocates nothing either.
        return networks or "auto"

    def _display_names(self, request: CreateRequest, count: int) -> list[str]:
        if count == 1:
            return [request.name]
        return [
            MULTI_INSTANCE_NAME_TEMPLATE % {"name": request.name, "count": index + 1}
            for index in range(count)
        ]

    def _new_instance(
        self,
        context,
        request: CreateRequest,
        flavor,
        image: dict[str, Any],
        display_name: str,
        launch_index: int,
        reservation_id: str,
        availability_zone: str | None,
        key_data: str | None,
    ):
        instance_uuid = uuidutils.generate_uuid()
        properties = image.get("properties") or {}
        hostname = request.hostname or sanitize_hostname(
            display_name, default_name=f"Server-{instance_uuid}"
        )
        instance = objects.Instance(
            context,
            uuid=instance_uuid,
            user_id=context.user_id,
            project_id=context.project_id,
            image_ref=image["id"],
            kernel_id=properties.get("kernel_id"),
            ramdisk_id=properties.get("ramdisk_id"),
            hostname=hostname,
            launch_index=launch_index,
            key_name=request.key_name,
            key_data=key_data,
            power_state=power_state.NOSTATE,
            vm_state=vm_states.BUILDING,
            task_state=task_states.SCHEDULING,
            memory_mb=flavor.memory_mb,
            vcpus=flavor.vcpus,
            root_gb=flavor.root_gb,
            ephemeral_gb=flavor.ephemeral_gb,
            instance_type_id=flavor.id,
            user_data=request.user_data,
            reservation_id=reservation_id,
            availability_zone=availability_zone,
            display_name=display_name,
            display_description=request.description,
            locked=False,
            locked_by=None,
            config_drive="True" if request.config_drive else "",
            access_ip_v4=request.access_ip_v4,
            access_ip_v6=request.access_ip_v6,
            auto_disk_config=request.auto_disk_config,
            progress=0,
            host=None,
            node=None,
            launched_at=None,
            terminated_at=None,
            os_type=properties.get("os_type"),
            architecture=properties.get("architecture"),
            root_device_name=None,
            metadata=dict(request.metadata),
            system_metadata=image_system_metadata(image),
            flavor=flavor,
            old_flavor=None,
            new_flavor=None,
            info_cache=objects.InstanceInfoCache(
                context, instance_uuid=instance_uuid, network_info=[]
            ),
            tags=objects.TagList.from_names(context, instance_uuid, request.tags),
            fault=None,
        )
        instance.deleted = False
        return instance

    @staticmethod
    def _root_disk(context, instance_uuid: str, image_id: str):
        bdm = objects.BlockDeviceMapping(
            context,
            uuid=uuidutils.generate_uuid(),
            instance_uuid=instance_uuid,
            source_type="image",
            destination_type="local",
            image_id=image_id,
            boot_index=0,
            delete_on_termination=True,
            device_type="disk",
            guest_format=None,
            volume_size=None,
        )
        return objects.BlockDeviceMappingList(objects=[bdm])

    @staticmethod
    def _write_build_records(context, build_requests, request_specs) -> None:
        """Every instance's build request, request spec and instance mapping,
        in one API database transaction: all of them or none."""
        with engines.transaction(context.api_db_connection) as session:
            rows = []
            for build_request, spec in zip(build_requests, request_specs, strict=True):
                instance = build_request.instance
                build_row = api_models.BuildRequest(
                    instance_uuid=instance.uuid,
                    project_id=instance.project_id,
                    instance=obj_base.obj_to_json(instance),
                    block_device_mappings=obj_base.obj_to_json(
                        build_request.block_device_mappings
                    ),
                    tags=obj_base.obj_to_json(build_request.tags),
                )
                spec_row = api_models.RequestSpec(
                    instance_uuid=instance.uuid, spec=spec._spec_document()
                )
                mapping_row = api_models.InstanceMapping(
                    instance_uuid=instance.uuid,
                    cell_id=None,
                    project_id=instance.project_id,
                    user_id=instance.user_id,
                    queued_for_delete=False,
                )
                session.add_all([build_row, spec_row, mapping_row])
                rows.append((build_row, spec_row))
            session.flush()
        for (build_row, spec_row), build_request, spec in zip(
            rows, build_requests, request_specs, strict=True
        ):
            build_request.id = build_row.id
            build_request.created_at = build_row.created_at
            build_request.updated_at = build_row.updated_at
            build_request.instance.created_at = build_row.created_at
            build_request.instance.updated_at = build_row.created_at
            build_request.obj_reset_changes()
            spec.id = spec_row.id
            spec.obj_reset_changes()

    @staticmethod
    def _remove_build_records(context, instance_uuids: Sequence[str]) -> None:
        with engines.transaction(context.api_db_connection) as session:
            for model in (
                api_models.BuildRequest,
                api_models.RequestSpec,
                api_models.InstanceMapping,
            ):
                session.execute(
                    sa.delete(model).where(model.instance_uuid.in_(instance_uuids))
                )

    @staticmethod
    def _requested_destination(context, request: CreateRequest):
        """The host and/or node an admin asked for (2.74), once known to
        exist; the scheduler then asks Placement only about that node.

        :raises Invalid: (400) for a host or node no cell knows.
        """
        return API._destination(
            context, request.requested_host, request.requested_hypervisor_hostname
        )

    @staticmethod
    def _destination(context, host: str | None, node: str | None = None):
        """A Destination of ``host`` and/or ``node``, once known to exist;
        None when neither is given.

        :raises Invalid: (400) for a host or node no cell knows.
        """
        if not host and not node:
            return None
        if host:
            try:
                cells = [objects.HostMapping.get_by_host(context, host).cell_mapping]
            except exception.HostMappingNotFound:
                raise exception.Invalid(
                    str(exception.ComputeHostNotFound(host=host))
                ) from None
        else:
            cells = [
                c for c in objects.CellMappingList.get_all(context) if not c.is_cell0()
            ]
        found = False
        for cell in cells:
            with nova_context.target_cell(context, cell) as cctxt:
                try:
                    nodes = (
                        objects.ComputeNodeList.get_all_by_host(cctxt, host)
                        if host
                        else objects.ComputeNodeList.get_all(cctxt)
                    )
                except exception.ComputeHostNotFound:
                    continue
            found = found or any(
                not node or n.hypervisor_hostname == node for n in nodes
            )
        if not found:
            name = f"{host or ''}:{node}" if node else host
            raise exception.Invalid(str(exception.ComputeHostNotFound(host=name)))
        destination = objects.Destination()
        if host:
            destination.host = host
        if node:
            destination.node = node
        return destination

    @staticmethod
    def _requested_instance_group(context, hints: dict[str, Any]):
        """The server group the ``group`` hint names, without its members'
        hosts (the superconductor fills those in when it schedules).

        :raises InvalidInput: no such group (upstream answers 400).
        """
        group_uuid = (hints or {}).get("group")
        if not group_uuid:
            return None
        try:
            group = objects.InstanceGroup.get_by_uuid(context, group_uuid)
        except exception.InstanceGroupNotFound as exc:
            raise exception.InvalidInput(reason=exc.format_message()) from exc
        group.hosts = []
        group.obj_reset_changes()
        return group

    @staticmethod
    def _instances_within_quota(context, request: CreateRequest, flavor) -> int:
        """How many of the requested instances the quota allows: max_count if
        they fit, else as many as fit but at least min_count.

        :raises TooManyInstances: not even min_count fit.
        """

        def deltas(count: int) -> dict[str, int]:
            return _instance_deltas(flavor, count)

        try:
            quota.enforce(
                context,
                deltas(request.max_count),
                context.project_id,
                user_id=context.user_id,
            )
            return request.max_count
        except exception.OverQuota as exc:
            fitting = _instances_that_fit(exc, deltas(1))
            if fitting >= request.min_count:
                return fitting
            requested = deltas(request.min_count)
            raise exception.TooManyInstances(
                quota.over_quota_message(exc, requested)
            ) from exc

    def _recheck_quota(
        self, context, instance_uuids: list[str], requested: dict[str, int]
    ) -> None:
        """Racing creates may have passed the check together: count again
        now that ours are written, and take ours back if over."""
        try:
            quota.recheck(
                context,
                ["instances", "cores", "ram"],
                context.project_id,
                user_id=context.user_id,
            )
        except exception.OverQuota as exc:
            self._remove_build_records(context, instance_uuids)
            raise exception.TooManyInstances(
                quota.over_quota_message(exc, requested, counted=True)
            ) from exc

    def create(self, context, request: CreateRequest) -> tuple[list, str, str]:
        """Accept ``request``: the instances, their reservation id and the
        admin password.

        Nothing is written unless everything validates.
        """
        policy.authorize(context, server_policies.SERVERS % "create")
        if request.min_count > request.max_count:
            raise exception.Invalid("min_count must be <= max_count")
        if request.hostname and request.max_count > 1:
            raise exception.Invalid(
                "Unable to set the hostname of several servers at once"
            )
        if request.requested_host or request.requested_hypervisor_hostname:
            policy.authorize(
                context, server_policies.SERVERS % "create:requested_destination"
            )
        check_metadata_quota(context, request.metadata)
        flavor = self._get_flavor(context, request.flavor_ref)
        image_id = self._boot_image_id(request)
        image = self._get_image(context, image_id)
        self._check_flavor_fits_image(context, flavor, image)
        key_data = self._key_data(context, request.key_name)
        zone, force_hosts, force_nodes = self._check_availability_zone(context, request)
        destination = self._requested_destination(context, request)
        requested_networks = self._check_networks(context, request.networks)
        admin_password = request.admin_password or generate_password()
        reservation_id = _reservation_id()

        count = self._instances_within_quota(context, request, flavor)
        group = self._requested_instance_group(context, request.scheduler_hints)
        if group is not None:
            try:
                quota.enforce(
                    context,
                    {"server_group_members": count},
                    context.project_id,
                    group_uuid=group.uuid,
                )
            except exception.OverQuota as exc:
                raise exception.GroupMemberLimitExceeded() from exc
        build_requests, request_specs = [], []
        for index, display_name in enumerate(self._display_names(request, count)):
            instance = self._new_instance(
                context,
                request,
                flavor,
                image,
                display_name,
                index,
                reservation_id,
                zone,
                key_data,
            )
            spec = objects.RequestSpec.from_components(
                context,
                instance.uuid,
                image,
                flavor,
                filter_properties={
                    "scheduler_hints": request.scheduler_hints,
                    "force_hosts": force_hosts,
                    "force_nodes": force_nodes,
                },
                availability_zone=zone,
                project_id=context.project_id,
                user_id=context.user_id,
                instance_group=group,
            )
            spec.num_instances = count
            if destination is not None:
                spec.requested_destination = destination
            build_requests.append(
                objects.BuildRequest(
                    context,
                    instance_uuid=instance.uuid,
                    project_id=instance.project_id,
                    instance=instance,
                    block_device_mappings=self._root_disk(
                        context, instance.uuid, image["id"]
                    ),
                    tags=objects.TagList.from_names(
                        context, instance.uuid, request.tags
                    ),
                )
            )
            request_specs.append(spec)

        self._write_build_records(context, build_requests, request_specs)
        self._recheck_quota(
            context,
            [b.instance_uuid for b in build_requests],
            _instance_deltas(flavor, count),
        )
        try:
            if group is not None:
                objects.InstanceGroup.add_members(
                    context, group.uuid, [b.instance_uuid for b in build_requests]
                )
            self._compute_task_api().schedule_and_build_instances(
                context,
                build_requests=build_requests,
                request_specs=request_specs,
                image=image,
                admin_password=admin_password,
                injected_files=[],
                requested_networks=requested_networks,
                block_device_mapping=build_requests[0].block_device_mappings,
                tags=request.tags,
            )
        except Exception:
            # Not handed over: nobody would ever build or clean these up.
            LOG.exception(
                "Could not hand servers %s over to the conductor", reservation_id
            )
            uuids = [b.instance_uuid for b in build_requests]
            self._remove_build_records(context, uuids)
            objects.InstanceGroup.remove_members(context, uuids)
            raise
        return [b.instance for b in build_requests], reservation_id, admin_password

    # -- read ---------------------------------------------------------------

    def _mapping(self, context, instance_uuid: str):
        try:
            mapping = objects.InstanceMapping.get_by_instance_uuid(
                context, instance_uuid
            )
        except exception.InstanceMappingNotFound as exc:
            raise exception.InstanceNotFound(instance_id=instance_uuid) from exc
        # Another project's server does not exist for its caller.
        if not context.is_admin and mapping.project_id != context.project_id:
            raise exception.InstanceNotFound(instance_id=instance_uuid)
        return mapping

    def get(
        self,
        context,
        instance_uuid: str,
        expected_attrs: Iterable[str] = (),
        cell_down_support: bool = False,
    ):
        """The server, from its cell or, not yet scheduled, its build request.

        ``cell_down_support`` (2.69+): when the cell's database cannot be
        reached, a minimal record of the instance instead of the error.

        :raises InstanceNotFound: no such server, or not the caller's.
        """
        mapping = self._mapping(context, instance_uuid)
        if mapping.cell_mapping is None:
            try:
                return objects.BuildRequest.get_by_instance_uuid(
                    context, instance_uuid
                ).instance
            except exception.BuildRequestNotFound:
                # Scheduled meanwhile: it is in a cell now, or deleted.
                mapping = self._mapping(context, instance_uuid)
                if mapping.cell_mapping is None:
                    raise exception.InstanceNotFound(
                        instance_id=instance_uuid
                    ) from None
        try:
            with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
                return objects.Instance.get_by_uuid(
                    cctxt, instance_uuid, expected_attrs=list(expected_attrs)
                )
        except sa.exc.DBAPIError:
            if not cell_down_support:
                raise
            LOG.warning(
                "Cell %s is down, showing server %s as UNKNOWN",
                mapping.cell_mapping.uuid,
                instance_uuid,
            )
            return instance_list.minimal_instance(context, mapping)

    def get_all(
        self,
        context,
        filters: dict[str, Any],
        limit: int | None,
        marker: str | None,
        sort_keys: list[str],
        sort_dirs: list[str],
        expected_attrs: Iterable[str] = (),
        cell_down_support: bool = False,
    ) -> list:
        """One page of servers: build requests first (the newest servers),
        then instances from every cell, merged in the requested order.

        ``cell_down_support``: see :func:`instance_list.get_instances_sorted`.

        :raises MarkerNotFound: the marker is no server of the caller's.
        """
        # The same total order as the cells' (uuid breaks ties), so a marker
        # finds its place among build requests created in the same second.
        sort_keys, sort_dirs = instance_list.normalize_sort(sort_keys, sort_dirs)
        try:
            build_requests = objects.BuildRequestList.get_by_filters(
                context, filters, limit, marker, sort_keys, sort_dirs
            )
            # No marker, or a build request's: the cells start from the top.
            cell_marker = None
        except exception.MarkerNotFound:
            build_requests = objects.BuildRequestList(objects=[])
            cell_marker = marker
        pending = [build_request.instance for build_request in build_requests]
        if limit is not None:
            limit -= len(pending)
            if limit <= 0:
                return pending
        instances = instance_list.get_instances_sorted(
            context,
            filters,
            limit,
            cell_marker,
            list(expected_attrs),
            sort_keys,
            sort_dirs,
            cell_down_support=cell_down_support,
        )
        # Scheduled between the two reads: the cell's copy is the live one.
        in_cells = {instance.uuid for instance in instances}
        return [i for i in pending if i.uuid not in in_cells] + list(instances)

    # -- update -------------------------------------------------------------

    def update(self, context, instance, **changes):
        """Change the name, description, hostname or access addresses."""
        policy.authorize(context, server_policies.SERVERS % "update", _target(instance))
        if "id" not in instance:
            # Still a build request: change the copy the conductor will use.
            try:
                build_request = objects.BuildRequest.get_by_instance_uuid(
                    context, instance.uuid
                )
            except exception.BuildRequestNotFound:
                # Scheduled meanwhile; update it in its cell.
                instance = self.get(context, instance.uuid)
            else:
                for name, value in changes.items():
                    setattr(build_request.instance, name, value)
                build_request.save()
                return build_request.instance
        for name, value in changes.items():
            setattr(instance, name, value)
        instance.save()
        return instance

    # -- metadata and tags --------------------------------------------------

    @staticmethod
    def _check_state(instance, vm_states_allowed, action: str, no_task=True) -> None:
        """:raises InstanceInvalidStateForAction: (409) outside those states."""
        if instance.vm_state not in vm_states_allowed:
            attr, state = "vm_state", instance.vm_state
        elif no_task and instance.task_state is not None:
            attr, state = "task_state", instance.task_state
        else:
            return
        raise exception.InstanceInvalidStateForAction(
            action=action, server_id=instance.uuid, attr=attr, state=state
        )

    @staticmethod
    def _check_lock(instance) -> None:
        """:raises InstanceIsLocked: (409) a locked server, for non-admins."""
        if instance.locked and not instance._context.is_admin:
            raise exception.InstanceIsLocked(instance_uuid=instance.uuid)

    def update_instance_metadata(
        self, instance, metadata: dict[str, str], replace: bool, action: str
    ) -> dict[str, str]:
        """Merge ``metadata`` into the server's (or replace it); the result.

        :raises MetadataLimitExceeded: more items than ``[quota]
            metadata_items`` allows.
        """
        self._check_lock(instance)
        self._check_state(instance, EDITABLE_VM_STATES, action)
        merged = dict(metadata) if replace else {**instance.metadata, **metadata}
        allowed = CONF.quota.metadata_items
        if 0 <= allowed < len(merged):
            raise exception.MetadataLimitExceeded(allowed=allowed)
        instance.metadata = merged
        instance.save()
        return merged

    def delete_instance_metadata(self, instance, key: str, action: str) -> None:
        """:raises MetadataItemNotFound: the server has no such key."""
        if key not in instance.metadata:
            raise exception.MetadataItemNotFound()
        self._check_lock(instance)
        self._check_state(instance, EDITABLE_VM_STATES, action)
        instance.metadata = {k: v for k, v in instance.metadata.items() if k != key}
        instance.save()

    def replace_tags(self, instance, tags: list[str], action: str) -> list[str]:
        """Make ``tags`` the server's tags; the stored ones, sorted."""
        self._check_state(instance, EDITABLE_VM_STATES, action, no_task=False)
        if len(set(tags)) > tag_obj.MAX_TAG_COUNT:
            raise exception.TooManyInstanceTags(limit=tag_obj.MAX_TAG_COUNT)
        stored = objects.TagList.create(instance._context, instance.uuid, tags)
        return [tag.tag for tag in stored]

    def add_tag(self, instance, tag: str, action: str) -> bool:
        """Add one tag; whether it is new (False: it was there already)."""
        self._check_state(instance, EDITABLE_VM_STATES, action, no_task=False)
        context = instance._context
        if objects.Tag.exists(context, instance.uuid, tag):
            return False
        tags = objects.TagList.get_by_resource_id(context, instance.uuid)
        if len(tags) >= tag_obj.MAX_TAG_COUNT:
            raise exception.TooManyInstanceTags(limit=tag_obj.MAX_TAG_COUNT)
        objects.Tag(context, resource_id=instance.uuid, tag=tag).create()
        return True

    def delete_tag(self, instance, tag: str, action: str) -> None:
        """:raises TagNotFound: the server has no such tag."""
        self._check_state(instance, EDITABLE_VM_STATES, action, no_task=False)
        objects.Tag.destroy(instance._context, instance.uuid, tag)

    def delete_tags(self, instance, action: str) -> None:
        self._check_state(instance, EDITABLE_VM_STATES, action, no_task=False)
        objects.TagList.destroy(instance._context, instance.uuid)

    # -- delete -------------------------------------------------------------

    def delete(self, context, instance) -> None:
        """Delete a server in whatever state it is.

        With ``[DEFAULT] reclaim_instance_interval`` > 0 a launched server
        on a running host is only soft-deleted (see :meth:`_soft_delete`).
        Otherwise: not yet scheduled, its build request goes, and the
        conductor drops the instance if it was being built. Buried in cell0,
        or never on a host: soft-deleted in place. On a host: the compute
        service is asked to terminate it (or, if that service is down, it is
        deleted here).
        """
        policy.authorize(context, server_policies.SERVERS % "delete", _target(instance))
        self._check_lock(instance)
        if CONF.reclaim_instance_interval > 0 and self._soft_delete(context, instance):
            return
        self._hard_delete(context, instance)

    def _hard_delete(self, context, instance) -> None:
        mapping = self._mapping(context, instance.uuid)
        # Its server group stops counting it at once, wherever it is.
        objects.InstanceGroup.remove_members(context, [instance.uuid])
        if mapping.cell_mapping is None:
            try:
                objects.BuildRequest.get_by_instance_uuid(
                    context, instance.uuid
                ).destroy()
            except exception.BuildRequestNotFound:
                mapping = self._mapping(context, instance.uuid)
            else:
                self._queue_for_delete(mapping)
                return
            if mapping.cell_mapping is None:
                raise exception.InstanceNotFound(instance_id=instance.uuid)
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            cell_instance = objects.Instance.get_by_uuid(cctxt, instance.uuid)
            if (
                mapping.cell_mapping.is_cell0()
                or not cell_instance.host
                or not self._compute_is_up(cctxt, cell_instance.host)
            ):
                self._local_delete(cell_instance)
            else:
                self._terminate_on_host(cctxt, cell_instance)
        self._queue_for_delete(mapping)

    def _soft_delete(self, context, instance) -> bool:
        """Power the server off and keep it, resources and all, for
        ``reclaim_instance_interval`` seconds (``SOFT_DELETED``); the host's
        periodic reclaim deletes it after that unless it is restored.

        False when a soft delete does not apply: never launched, not on a
        host, that host's service is down, or already soft-deleted; the
        caller deletes it for good then.
        """
        mapping = self._mapping(context, instance.uuid)
        if mapping.cell_mapping is None or mapping.cell_mapping.is_cell0():
            return False
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            cell_instance = objects.Instance.get_by_uuid(cctxt, instance.uuid)
            if (
                cell_instance.vm_state == vm_states.SOFT_DELETED
                or not cell_instance.launched_at
                or not cell_instance.host
                or not self._compute_is_up(cctxt, cell_instance.host)
            ):
                return False
            _check_no_task(cell_instance, "soft_delete")
            cell_instance.task_state = task_states.SOFT_DELETING
            cell_instance.deleted_at = obj_base.utcnow()
            cell_instance.save(expected_task_state=[None])
            objects.InstanceAction.action_start(
                cctxt, cell_instance.uuid, instance_actions.DELETE, want_result=False
            )
            self._compute_rpcapi().soft_delete_instance(cctxt, cell_instance)
        return True

    def restore(self, context, instance) -> None:
        """Bring a soft-deleted server back (the ``restore`` action).

        :raises InstanceInvalidState: (409) it is not soft-deleted.
        """
        cctxt, cell_instance = self._on_host(
            context, instance, "restore", deferred_delete_policies.RESTORE
        )
        self._check_lock(cell_instance)
        check_instance_state(
            cell_instance, "restore", (vm_states.SOFT_DELETED,), (None,)
        )
        cell_instance.task_state = task_states.RESTORING
        cell_instance.deleted_at = None
        cell_instance.save(expected_task_state=[None])
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, instance_actions.RESTORE, want_result=False
        )
        self._compute_rpcapi().restore_instance(cctxt, cell_instance)

    def force_delete(self, context, instance) -> None:
        """Delete a server at once, soft-deleted or not (``forceDelete``).

        :raises InstanceInvalidState: (409) it is busy with another task.
        """
        policy.authorize(context, deferred_delete_policies.FORCE, _target(instance))
        self._check_lock(instance)
        _check_no_task(instance, instance_actions.FORCE_DELETE)
        self._hard_delete(context, instance)

    @staticmethod
    def _queue_for_delete(mapping) -> None:
        mapping.queued_for_delete = True
        try:
            mapping.save()
        except exception.InstanceMappingNotFound:
            pass

    @staticmethod
    def _compute_is_up(cctxt, host: str) -> bool:
        from nova import servicegroup

        try:
            service = objects.Service.get_by_compute_host(cctxt, host)
        except exception.ComputeHostNotFound:
            return False
        return servicegroup.service_is_up(service)

    @staticmethod
    def _local_delete(instance) -> None:
        """Delete an instance no running compute host can delete for us.

        The database rows are soft-deleted here; when the instance had a host
        (whose compute service is down), its Placement allocations are given
        back too, or they would hold that host's resources forever.
        """
        instance.vm_state = vm_states.DELETED
        instance.task_state = None
        instance.terminated_at = obj_base.utcnow()
        try:
            instance.save()
            instance.destroy()
        except exception.InstanceNotFound:
            pass
        if instance.host:
            try:
                placement.client().remove_allocations(
                    instance.uuid, context=instance._context
                )
            except placement_exc.PlacementClientError as exc:
                LOG.warning(
                    "Deleted instance %s but could not give back its "
                    "allocations in Placement: %s",
                    instance.uuid,
                    exc,
                )

    def _terminate_on_host(self, cctxt, instance) -> None:
        if instance.task_state == task_states.DELETING:
            return  # already on its way out
        objects.InstanceAction.action_start(
            cctxt, instance.uuid, "delete", want_result=False
        )
        instance.task_state = task_states.DELETING
        instance.progress = 0
        try:
            instance.save()
        except exception.UnexpectedDeletingTaskStateError:
            return
        bdms = objects.BlockDeviceMappingList.get_by_instance_uuid(cctxt, instance.uuid)
        self._compute_rpcapi().terminate_instance(cctxt, instance, bdms)

    # -- power actions --------------------------------------------------------

    def _in_cell(self, context, instance, method: str):
        """The instance as its cell has it, and the cell's context.

        :raises InstanceInvalidState: not yet scheduled (409).
        """
        mapping = self._mapping(context, instance.uuid)
        if mapping.cell_mapping is None:
            raise exception.InstanceInvalidState(
                instance_uuid=instance.uuid,
                attr="vm_state",
                state=vm_states.BUILDING,
                method=method,
            )
        # target_cell only copies the context: the copy outlives the block.
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            cell_instance = objects.Instance.get_by_uuid(cctxt, instance.uuid)
        return cctxt, cell_instance

    def _on_host(self, context, instance, method: str, rule: str):
        """Authorize ``rule``; yield the instance as its cell has it (and
        the cell's context), which must be on a host.

        :raises InstanceInvalidState: not yet scheduled (409).
        :raises InstanceNotReady: on no host (409).
        """
        policy.authorize(context, rule, _target(instance))
        cctxt, cell_instance = self._in_cell(context, instance, method)
        if not cell_instance.host:
            raise exception.InstanceNotReady(instance_id=instance.uuid)
        return cctxt, cell_instance

    def _start_power_action(
        self,
        context,
        instance,
        *,
        rule: str,
        action: str,
        vm_state: Iterable[str],
        task_state: str,
        allowed_task_states: Iterable[str | None] = (None,),
    ):
        """Check the state and that a non-admin is not acting on a locked
        server, claim it with the task (compare-and-swap,
        so two actions never both start), record the instance action; the
        cell's context and instance, ready for the cast."""
        cctxt, cell_instance = self._on_host(context, instance, action, rule)
        self._check_lock(cell_instance)
        allowed_task_states = list(allowed_task_states)
        check_instance_state(cell_instance, action, vm_state, allowed_task_states)
        cell_instance.task_state = task_state
        cell_instance.save(expected_task_state=allowed_task_states)
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, action, want_result=False
        )
        return cctxt, cell_instance

    def stop(self, context, instance, clean_shutdown: bool = True) -> None:
        """Power off an ACTIVE or ERROR server (``os-stop``)."""
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=server_policies.SERVERS % "stop",
            action=instance_actions.STOP,
            vm_state=(vm_states.ACTIVE, vm_states.ERROR),
            task_state=task_states.POWERING_OFF,
        )
        cell_instance.progress = 0
        self._compute_rpcapi().stop_instance(cctxt, cell_instance, clean_shutdown)

    def start(self, context, instance) -> None:
        """Power on a STOPPED server (``os-start``)."""
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=server_policies.SERVERS % "start",
            action=instance_actions.START,
            vm_state=(vm_states.STOPPED,),
            task_state=task_states.POWERING_ON,
        )
        self._compute_rpcapi().start_instance(cctxt, cell_instance)

    def reboot(self, context, instance, reboot_type: str) -> None:
        """Reboot: SOFT only an ACTIVE server with no task, HARD also a
        stopped, paused, suspended or failed one, or one stuck in a task."""
        hard = reboot_type == "HARD"
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=server_policies.SERVERS % "reboot",
            action=instance_actions.REBOOT,
            vm_state=HARD_REBOOT_VM_STATES if hard else (vm_states.ACTIVE,),
            task_state=task_states.REBOOTING_HARD if hard else task_states.REBOOTING,
            allowed_task_states=HARD_REBOOT_TASK_STATES if hard else (None,),
        )
        self._compute_rpcapi().reboot_instance(
            cctxt, cell_instance, reboot_type=reboot_type
        )

    def pause(self, context, instance) -> None:
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=pause_policies.PAUSE,
            action=instance_actions.PAUSE,
            vm_state=(vm_states.ACTIVE,),
            task_state=task_states.PAUSING,
        )
        self._compute_rpcapi().pause_instance(cctxt, cell_instance)

    def unpause(self, context, instance) -> None:
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=pause_policies.UNPAUSE,
            action=instance_actions.UNPAUSE,
            vm_state=(vm_states.PAUSED,),
            task_state=task_states.UNPAUSING,
        )
        self._compute_rpcapi().unpause_instance(cctxt, cell_instance)

    def suspend(self, context, instance) -> None:
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=suspend_policies.SUSPEND,
            action=instance_actions.SUSPEND,
            vm_state=(vm_states.ACTIVE,),
            task_state=task_states.SUSPENDING,
        )
        self._compute_rpcapi().suspend_instance(cctxt, cell_instance)

    def resume(self, context, instance) -> None:
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=suspend_policies.RESUME,
            action=instance_actions.RESUME,
            vm_state=(vm_states.SUSPENDED,),
            task_state=task_states.RESUMING,
        )
        self._compute_rpcapi().resume_instance(cctxt, cell_instance)

    # -- snapshots and backups ------------------------------------------------

    def _start_image_task(
        self,
        context,
        instance,
        *,
        rule: str,
        action: str,
        task_state: str,
        name: str,
        image_type: str,
        metadata: dict[str, str],
        extra_properties: dict[str, str] | None = None,
    ):
        """Check the server may be imaged, create the queued image (the
        caller's ``metadata`` within the metadata_items quota), claim the
        task; the cell's context, instance and the image. The image goes
        again when the task cannot be claimed."""
        cctxt, cell_instance = self._on_host(context, instance, action, rule)
        self._check_lock(cell_instance)
        check_instance_state(cell_instance, action, SNAPSHOT_VM_STATES, (None,))
        if metadata:
            check_metadata_quota(context, metadata)
        image = snapshot.create_snapshot_image(
            self.image_api,
            context,
            cell_instance,
            name,
            image_type,
            {**metadata, **(extra_properties or {})},
        )
        try:
            cell_instance.task_state = task_state
            cell_instance.save(expected_task_state=[None])
            objects.InstanceAction.action_start(
                cctxt, cell_instance.uuid, action, want_result=False
            )
        except BaseException:
            self.image_api.delete(context, image["id"])
            raise
        return cctxt, cell_instance, image

    def snapshot(
        self, context, instance, name: str, metadata: dict[str, str]
    ) -> dict[str, Any]:
        """Save the server's root disk as a new image (``createImage``);
        the image, queued until its host has uploaded the data."""
        cctxt, cell_instance, image = self._start_image_task(
            context,
            instance,
            rule=server_policies.SERVERS % "create_image",
            action=instance_actions.CREATE_IMAGE,
            task_state=task_states.IMAGE_SNAPSHOT_PENDING,
            name=name,
            image_type=snapshot.SNAPSHOT,
            metadata=metadata,
        )
        self._compute_rpcapi().snapshot_instance(cctxt, cell_instance, image["id"])
        return image

    def backup(
        self,
        context,
        instance,
        name: str,
        backup_type: str,
        rotation: int,
        metadata: dict[str, str],
    ) -> dict[str, Any]:
        """A backup image of the server (``createBackup``); the host then
        deletes the oldest backups of ``backup_type`` beyond ``rotation``
        (with 0, the new one too, as upstream)."""
        cctxt, cell_instance, image = self._start_image_task(
            context,
            instance,
            rule=create_backup_policies.RULE,
            action=instance_actions.BACKUP,
            task_state=task_states.IMAGE_BACKUP,
            name=name,
            image_type=snapshot.BACKUP,
            metadata=metadata,
            extra_properties={"backup_type": backup_type},
        )
        self._compute_rpcapi().backup_instance(
            cctxt, cell_instance, image["id"], backup_type, rotation
        )
        return image

    # -- rescue ---------------------------------------------------------------

    def rescue(
        self,
        context,
        instance,
        rescue_password: str | None = None,
        rescue_image_ref: str | None = None,
    ) -> None:
        """Boot an ACTIVE, STOPPED or ERROR server from a rescue image (the
        one named, else its own) with its root disk as the second disk.

        :raises UnsupportedRescueImage: (400) the named image is not there.
        :raises InstanceNotRescuable: (400) the server has no image of its
            own and none was named.
        """
        policy.authorize(context, rescue_policies.RESCUE, _target(instance))
        if rescue_image_ref:
            try:
                self.image_api.show(context, rescue_image_ref)
            except exception.ImageNotFound as exc:
                raise exception.UnsupportedRescueImage(image=rescue_image_ref) from exc
        elif not instance.image_ref:
            raise exception.InstanceNotRescuable(
                instance_id=instance.uuid, reason="it was not booted from an image"
            )
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=rescue_policies.RESCUE,
            action=instance_actions.RESCUE,
            vm_state=(vm_states.ACTIVE, vm_states.STOPPED, vm_states.ERROR),
            task_state=task_states.RESCUING,
        )
        self._compute_rpcapi().rescue_instance(
            cctxt,
            cell_instance,
            rescue_password=rescue_password,
            rescue_image_ref=rescue_image_ref,
        )

    def unrescue(self, context, instance) -> None:
        """Boot a RESCUED server from its own disk again."""
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=rescue_policies.UNRESCUE,
            action=instance_actions.UNRESCUE,
            vm_state=(vm_states.RESCUED,),
            task_state=task_states.UNRESCUING,
        )
        self._compute_rpcapi().unrescue_instance(cctxt, cell_instance)

    # -- shelve ---------------------------------------------------------------

    def shelve(self, context, instance, clean_shutdown: bool = True) -> None:
        """Snapshot the server as ``<name>-shelved`` and stop it: SHELVED,
        then (by ``[DEFAULT] shelved_offload_time``) SHELVED_OFFLOADED."""
        cctxt, cell_instance, image = self._start_image_task(
            context,
            instance,
            rule=shelve_policies.SHELVE,
            action=instance_actions.SHELVE,
            task_state=task_states.SHELVING,
            name=f"{instance.display_name}-shelved",
            image_type=snapshot.SNAPSHOT,
            metadata={},
        )
        self._compute_rpcapi().shelve_instance(
            cctxt, cell_instance, image["id"], clean_shutdown=clean_shutdown
        )

    def shelve_offload(self, context, instance, clean_shutdown: bool = True) -> None:
        """Free the host of a SHELVED server: SHELVED_OFFLOADED."""
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=shelve_policies.SHELVE_OFFLOAD,
            action=instance_actions.SHELVE_OFFLOAD,
            vm_state=(vm_states.SHELVED,),
            task_state=task_states.SHELVING_OFFLOADING,
        )
        self._compute_rpcapi().shelve_offload_instance(
            cctxt, cell_instance, clean_shutdown=clean_shutdown
        )

    def unshelve(
        self,
        context,
        instance,
        new_az: str | None = None,
        host: str | None = None,
        az_given: bool = False,
    ) -> None:
        """Bring a shelved server back: a SHELVED one is powered on, a
        SHELVED_OFFLOADED one scheduled again (into ``new_az`` or onto
        ``host`` when given; ``az_given`` with ``new_az`` None unpins it)."""
        policy.authorize(context, shelve_policies.UNSHELVE, _target(instance))
        if host:
            policy.authorize(
                context, shelve_policies.UNSHELVE_TO_HOST, _target(instance)
            )
        cctxt, cell_instance = self._in_cell(
            context, instance, instance_actions.UNSHELVE
        )
        self._check_lock(cell_instance)
        check_instance_state(
            cell_instance,
            instance_actions.UNSHELVE,
            (vm_states.SHELVED, vm_states.SHELVED_OFFLOADED),
            (None,),
        )
        request_spec = objects.RequestSpec.get_by_instance_uuid(context, instance.uuid)
        if cell_instance.vm_state == vm_states.SHELVED:
            if az_given or host:
                raise exception.UnshelveInstanceInvalidState(
                    instance_uuid=instance.uuid
                )
        else:
            if new_az and new_az not in self.available_zones(context):
                raise exception.Invalid(
                    "The requested availability zone is not available"
                )
            if az_given:
                request_spec.availability_zone = new_az
                cell_instance.availability_zone = new_az
            if host:
                request_spec.requested_destination = self._destination(context, host)
                if new_az:
                    self._check_host_in_zone(context, host, new_az)
        cell_instance.task_state = task_states.UNSHELVING
        cell_instance.save(expected_task_state=[None])
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, instance_actions.UNSHELVE, want_result=False
        )
        if az_given:
            request_spec.save()
        # To the superconductor: the API-level context, not the cell's.
        self._compute_task_api().unshelve_instance(context, cell_instance, request_spec)

    @staticmethod
    def _check_host_in_zone(context, host: str, zone: str) -> None:
        """:raises Invalid: (400) ``host`` is not in the zone ``zone``."""
        from nova.objects.service import compute_host_availability_zones

        host_zone = compute_host_availability_zones(context).get(
            host, CONF.default_availability_zone
        )
        if zone not in host_zone.split(","):
            raise exception.Invalid(
                f"Host '{host}' is not in availability zone '{zone}'."
            )

    # -- rebuild --------------------------------------------------------------

    def rebuild(
        self,
        context,
        instance,
        image_href: str,
        admin_password: str | None,
        files_to_inject=None,
        preserve_ephemeral: bool = False,
        **changes,
    ):
        """Re-create the server's guest from ``image_href`` on its host
        (``rebuild``); the instance as it now stands (REBUILD).

        ``changes`` are instance fields the request sets (``display_name``,
        ``metadata``, ``key_name`` with None removing the key, ``user_data``,
        ``hostname``, ...). The image's fitness for the host is checked by
        the compute host when the image changes.
        """
        cctxt, cell_instance = self._on_host(
            context,
            instance,
            instance_actions.REBUILD,
            server_policies.SERVERS % "rebuild",
        )
        self._check_lock(cell_instance)
        check_instance_state(
            cell_instance, instance_actions.REBUILD, REBUILD_VM_STATES, (None,)
        )
        image = self._get_image(context, image_href)
        self._check_flavor_fits_image(context, cell_instance.flavor, image)
        if "metadata" in changes:
            check_metadata_quota(context, changes["metadata"])
        if "key_name" in changes:
            changes["key_data"] = self._key_data(context, changes["key_name"])
        orig_image_ref = cell_instance.image_ref
        orig_sys_metadata = dict(cell_instance.system_metadata)
        if image_href != orig_image_ref:
            # The instance remembers the new image from now on.
            system_metadata = {
                k: v for k, v in orig_sys_metadata.items() if not k.startswith("image_")
            }
            system_metadata.update(image_system_metadata(image))
            cell_instance.system_metadata = system_metadata
            cell_instance.image_ref = image_href
        for name, value in changes.items():
            setattr(cell_instance, name, value)
        cell_instance.task_state = task_states.REBUILDING
        cell_instance.progress = 0
        cell_instance.save(expected_task_state=[None])
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, instance_actions.REBUILD, want_result=False
        )
        self._compute_rpcapi().rebuild_instance(
            cctxt,
            cell_instance,
            orig_image_ref=orig_image_ref,
            image_ref=image_href,
            orig_sys_metadata=orig_sys_metadata,
            injected_files=files_to_inject or [],
            new_pass=admin_password,
            preserve_ephemeral=preserve_ephemeral,
        )
        return cell_instance

    def get_console_output(self, context, instance, tail_length=None) -> str:
        """The server's console log, from its host."""
        cctxt, cell_instance = self._on_host(
            context, instance, "get_console_output", console_output_policies.RULE
        )
        return self._compute_rpcapi().get_console_output(
            cctxt, cell_instance, tail_length=tail_length
        )

    # -- lock, state reset and administrative actions -------------------------

    @staticmethod
    def _locked_by(context, instance) -> str:
        """Who a lock by ``context`` is recorded as: the owner, or an admin
        of another project."""
        return "owner" if context.project_id == instance.project_id else "admin"

    def lock(self, context, instance, reason: str | None = None) -> None:
        """Lock the server against changes by non-admins; ``reason`` (2.73)
        is kept in its system metadata as ``locked_reason``."""
        policy.authorize(context, lock_policies.LOCK, _target(instance))
        cctxt, cell_instance = self._in_cell(context, instance, "lock")
        cell_instance.locked = True
        cell_instance.locked_by = self._locked_by(context, cell_instance)
        if reason:
            cell_instance.system_metadata = {
                **cell_instance.system_metadata,
                "locked_reason": reason,
            }
        cell_instance.save()
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, instance_actions.LOCK, want_result=False
        )
        LOG.info("Instance %s locked by %s", instance.uuid, cell_instance.locked_by)

    def unlock(self, context, instance) -> None:
        """Lift the lock; lifting one set by the other side (the owner's by
        an admin, an admin's by the owner) needs ``unlock_override``."""
        policy.authorize(context, lock_policies.UNLOCK, _target(instance))
        cctxt, cell_instance = self._in_cell(context, instance, "unlock")
        locked_by = cell_instance.locked_by
        if locked_by and locked_by != self._locked_by(context, cell_instance):
            policy.authorize(context, lock_policies.UNLOCK_OVERRIDE, _target(instance))
        cell_instance.locked = False
        cell_instance.locked_by = None
        if "locked_reason" in cell_instance.system_metadata:
            cell_instance.system_metadata = {
                key: value
                for key, value in cell_instance.system_metadata.items()
                if key != "locked_reason"
            }
        cell_instance.save()
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, instance_actions.UNLOCK, want_result=False
        )
        LOG.info("Instance %s unlocked", instance.uuid)

    def reset_state(self, context, instance, vm_state: str) -> None:
        """Force the server's vm_state (ACTIVE or ERROR) and clear its task,
        whatever it was doing: the operator's way out of a stuck state."""
        policy.authorize(context, admin_actions_policies.RESET_STATE, _target(instance))
        cctxt, cell_instance = self._in_cell(context, instance, "reset_state")
        cell_instance.vm_state = vm_state
        cell_instance.task_state = None
        cell_instance.save()
        objects.InstanceAction.action_start(
            cctxt, cell_instance.uuid, instance_actions.RESET_STATE, want_result=False
        )
        LOG.info("Instance %s reset to %s by an admin", instance.uuid, vm_state)

    def _call_host(self, cell_instance, method: str, **kwargs):
        """Ask the instance's host over RPC, a host that does not answer
        being unavailable (503) rather than an error of ours."""
        try:
            return getattr(self._compute_rpcapi(), method)(
                cell_instance._context, cell_instance, **kwargs
            )
        except oslo_messaging.MessagingTimeout as exc:
            raise exception.ComputeServiceUnavailable(host=cell_instance.host) from exc

    def get_diagnostics(self, context, instance, rule: str) -> dict:
        """The driver's own diagnostics of the guest (before 2.48)."""
        _, cell_instance = self._on_host(context, instance, "get_diagnostics", rule)
        return self._call_host(cell_instance, "get_diagnostics")

    def get_instance_diagnostics(self, context, instance, rule: str) -> dict:
        """Diagnostics of the guest in the standard shape (2.48+)."""
        _, cell_instance = self._on_host(
            context, instance, "get_instance_diagnostics", rule
        )
        return self._call_host(cell_instance, "get_instance_diagnostics")

    def trigger_crash_dump(self, context, instance) -> None:
        """Have the guest's kernel dump its memory (an NMI on libvirt)."""
        cctxt, cell_instance = self._on_host(
            context,
            instance,
            "trigger_crash_dump",
            server_policies.SERVERS % "trigger_crash_dump",
        )
        self._check_lock(cell_instance)
        check_instance_state(
            cell_instance,
            "trigger_crash_dump",
            CRASH_DUMP_VM_STATES,
            (None,),
        )
        objects.InstanceAction.action_start(
            cctxt,
            cell_instance.uuid,
            instance_actions.TRIGGER_CRASH_DUMP,
            want_result=False,
        )
        self._compute_rpcapi().trigger_crash_dump(cctxt, cell_instance)

    def set_admin_password(self, context, instance, password: str) -> None:
        """Set the guest's administrator password through its host, waiting
        for the answer (the guest agent may refuse)."""
        cctxt, cell_instance = self._start_power_action(
            context,
            instance,
            rule=admin_password_policies.BASE_POLICY_NAME,
            action=instance_actions.CHANGE_PASSWORD,
            vm_state=(vm_states.ACTIVE,),
            task_state=task_states.UPDATING_PASSWORD,
        )
        self._call_host(cell_instance, "set_admin_password", new_pass=password)
