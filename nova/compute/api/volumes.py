"""A server's volumes (``os-volume_attachments``): listing its block device
mappings, and attaching a volume or detaching one on its host.

An attach reserves the volume in the block storage service for the server
(an attachment without a connector) and records the block device mapping
at a free device name, then casts to the host, which connects it. If the
reservation fails the mapping is dropped; a mapping whose reservation
cannot be cast is rolled back in the block storage service too. A detach
marks the volume ``detaching`` and casts; the host disconnects it.
"""

from __future__ import annotations

import logging
import string

from nova import exception, objects, policy
from nova.compute.api import base
from nova.policies import volumes_attachments as policies
from nova.states import machine
from nova.volume import api as volume_api

LOG = logging.getLogger(__name__)

DEVICE_PREFIX = "/dev/vd"
ROOT_DEVICE = "/dev/vda"


def next_device_name(taken: set[str]) -> str:
    """The first ``/dev/vdX`` after the root disk not in ``taken``.

    :raises InvalidVolume: no single-letter name is free.
    """
    for letter in string.ascii_lowercase[1:]:
        name = DEVICE_PREFIX + letter
        if name not in taken:
            return name
    raise exception.InvalidVolume(reason="the server has no free device name")


class VolumesAPI(base.FlowAPI):
    """List, show, attach and detach a server's volumes."""

    @property
    def volume_api(self) -> volume_api.VolumeAPI:
        return volume_api.get_volume_api()

    def list_volumes(self, context, instance) -> list:
        """The server's volume block device mappings, in attach order."""
        policy.authorize(context, policies.INDEX, base.target(instance))
        cctxt, _ = self.in_cell(context, instance, "list volumes")
        return volume_bdms(cctxt, instance.uuid)

    def show_volume(self, context, instance, volume_id: str):
        """:raises VolumeNotAttached: the server has no such volume (404)."""
        policy.authorize(context, policies.SHOW, base.target(instance))
        cctxt, _ = self.in_cell(context, instance, "show volume")
        return self._bdm(cctxt, instance, volume_id)

    def attach_volume(
        self,
        context,
        instance,
        volume_id: str,
        device: str | None = None,
        tag: str | None = None,
        delete_on_termination: bool = False,
    ) -> str:
        """Reserve the volume for the server and have its host attach it.

        :returns: the device name the volume gets.
        :raises VolumeNotFound: (404).
        :raises InvalidVolume: the volume cannot be attached (in use, in
            another zone, already on this server) (400).
        :raises InstanceIsLocked, InstanceInvalidState: (409).
        """
        cctxt, cell_instance = self.on_host(
            context, instance, machine.ATTACH_VOLUME.action, policies.CREATE
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.ATTACH_VOLUME)
        volumes = self.volume_api
        volume = volumes.get(context, volume_id)
        bdms = objects.BlockDeviceMappingList.get_by_instance_uuid(cctxt, instance.uuid)
        if any(bdm.volume_id == volume_id for bdm in bdms):
            raise exception.InvalidVolume(
                reason=f"volume {volume_id} is already attached to this server"
            )
        check_zone = getattr(volumes, "check_availability_zone", None)
        if check_zone is not None:
            check_zone(volume, cell_instance.availability_zone)
        taken = {bdm.device_name for bdm in bdms if bdm.device_name} | {ROOT_DEVICE}
        if device and device in taken:
            device = None  # as upstream: the host picks another name
        bdm = objects.BlockDeviceMapping(
            cctxt,
            instance_uuid=instance.uuid,
            source_type="volume",
            destination_type="volume",
            device_type="disk",
            volume_id=volume_id,
            device_name=device or next_device_name(taken),
            delete_on_termination=delete_on_termination,
            tag=tag,
        )
        bdm.create()
        try:
            attachment = volumes.attachment_create(context, volume_id, instance.uuid)
        except Exception:
            bdm.destroy()
            raise
        bdm.attachment_id = attachment["id"]
        bdm.save()
        self.record_action(cctxt, cell_instance, machine.ATTACH_VOLUME)
        try:
            self._compute_rpcapi().attach_volume(cctxt, cell_instance, bdm)
        except Exception:
            volumes.attachment_delete(context, attachment["id"])
            bdm.destroy()
            raise
        LOG.info(
            "Volume %s reserved for %s at %s", volume_id, instance.uuid, bdm.device_name
        )
        return bdm.device_name

    def detach_volume(self, context, instance, volume_id: str) -> None:
        """Mark the volume detaching and have the host detach it.

        :raises VolumeNotFound: (404) no such volume.
        :raises VolumeNotAttached: (404) not attached to this server.
        :raises InvalidVolume: the volume cannot be detached now (400).
        :raises InstanceIsLocked, InstanceInvalidState: (409).
        """
        cctxt, cell_instance = self.on_host(
            context, instance, machine.DETACH_VOLUME.action, policies.DELETE
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.DETACH_VOLUME)
        volumes = self.volume_api
        volumes.get(context, volume_id)
        bdm = self._bdm(cctxt, instance, volume_id)
        if bdm.boot_index == 0:
            raise exception.InvalidVolume(
                reason="the root volume of a server cannot be detached"
            )
        volumes.begin_detaching(context, volume_id)
        self.record_action(cctxt, cell_instance, machine.DETACH_VOLUME)
        try:
            self._compute_rpcapi().detach_volume(cctxt, cell_instance, bdm)
        except Exception:
            volumes.roll_detaching(context, volume_id)
            raise

    @staticmethod
    def _bdm(cctxt, instance, volume_id: str):
        try:
            return objects.BlockDeviceMapping.get_by_volume_and_instance(
                cctxt, volume_id, instance.uuid
            )
        except exception.VolumeBDMNotFound as exc:
            raise exception.VolumeNotAttached(volume_id=volume_id) from exc


def volume_bdms(cctxt, instance_uuid: str) -> list:
    """The instance's block device mappings that are volumes."""
    return [
        bdm
        for bdm in objects.BlockDeviceMappingList.get_by_instance_uuid(
            cctxt, instance_uuid
        )
        if bdm.is_volume and bdm.volume_id
    ]
