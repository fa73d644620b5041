"""Creating servers: ``POST /servers`` below HTTP.

Creating a server validates the request against the flavor and image,
writes for each instance a build request, a request spec and an instance
mapping (no cell yet) into the API database in one transaction, and hands
them to the superconductor, which schedules and creates them in a cell.
Until then a server exists only as its build request.
"""

from __future__ import annotations

import logging
import re
import secrets
import string
from dataclasses import dataclass, field
from typing import Any

from oslo_utils import uuidutils

import nova.conf
from nova import exception, objects, policy, quota
from nova.compute.api import base, checks, zones
from nova.policies import servers as server_policies
from nova.states import machine, power_state, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Names of the servers of one multi-create request, as upstream names them.
MULTI_INSTANCE_NAME_TEMPLATE = "%(name)s-%(count)d"


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
    # Personality files: (path, contents in base64), up to 2.56.
    injected_files: list[tuple[str, str]] = field(default_factory=list)
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


class CreateAPI(base.FlowAPI):
    """Accepts new servers and hands them to the superconductor."""

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
        else:
            zones.check_available(context, zone)
        return (
            zone,
            [forced_host] if forced_host else None,
            [forced_node] if forced_node else None,
        )

    def _check_networks(self, context, networks, max_count: int) -> str | list:
        """The requested networks, as the network service accepts them.

        :raises NetworkRequestsNotSupported: specific networks were asked
            for and the deployment has no network service to give them.
        """
        if isinstance(networks, list):
            policy.authorize(context, server_policies.SERVERS % "create:attach_network")
        networks = "none" if networks == [] else networks or "auto"
        self.network_api.validate_networks(context, networks, max_count)
        return networks

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
            task_state=machine.BUILD.task_state,
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
            system_metadata=checks.image_system_metadata(image),
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
    def _requested_destination(context, request: CreateRequest):
        """The host and/or node an admin asked for (2.74), once known to
        exist; the scheduler then asks Placement only about that node.

        :raises Invalid: (400) for a host or node no cell knows.
        """
        return checks.destination(
            context, request.requested_host, request.requested_hypervisor_hostname
        )

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
            objects.BuildRequestList.destroy_build_records(context, instance_uuids)
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
        base.check_metadata_quota(context, request.metadata)
        base.check_injected_file_quota(context, request.injected_files)
        flavor = checks.get_flavor(context, request.flavor_ref)
        image_id = self._boot_image_id(request)
        image = checks.get_image(self.image_api, context, image_id)
        checks.check_flavor_fits_image(context, flavor, image)
        key_data = checks.key_data(context, request.key_name)
        zone, force_hosts, force_nodes = self._check_availability_zone(context, request)
        destination = self._requested_destination(context, request)
        requested_networks = self._check_networks(
            context, request.networks, request.max_count
        )
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

        objects.BuildRequestList.create_build_records(
            context, build_requests, request_specs
        )
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
                build_parameters=objects.BuildParameters(
                    image=image,
                    admin_password=admin_password,
                    injected_files=[
                        [path, contents] for path, contents in request.injected_files
                    ],
                    requested_networks=requested_networks,
                    block_device_mapping=build_requests[0].block_device_mappings,
                    tags=request.tags,
                ),
            )
        except Exception:
            # Not handed over: nobody would ever build or clean these up.
            LOG.exception(
                "Could not hand servers %s over to the conductor", reservation_id
            )
            uuids = [b.instance_uuid for b in build_requests]
            objects.BuildRequestList.destroy_build_records(context, uuids)
            objects.InstanceGroup.remove_members(context, uuids)
            raise
        return [b.instance for b in build_requests], reservation_id, admin_password

    # -- read ---------------------------------------------------------------
