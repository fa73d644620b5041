"""Actions that save a server's disk as an image: createImage,
createBackup, and shelve (with shelveOffload and unshelve)."""

from __future__ import annotations

from typing import Any

from nova import exception, objects, policy
from nova.compute import snapshot
from nova.compute.api import base, checks, zones
from nova.policies import create_backup as create_backup_policies
from nova.policies import servers as server_policies
from nova.policies import shelve as shelve_policies
from nova.states import machine, vm_states


class ImagesAPI(base.FlowAPI):
    """Snapshots, backups and shelving."""

    def _start_image_task(
        self,
        context,
        instance,
        transition: machine.Transition,
        rule: str,
        *,
        name: str,
        image_type: str,
        metadata: dict[str, str],
        extra_properties: dict[str, str] | None = None,
    ):
        """Check the server may be imaged, create the queued image (the
        caller's ``metadata`` within the metadata_items quota), claim the
        task; the cell's context, instance and the image. The image goes
        again when the task cannot be claimed."""
        cctxt, cell_instance = self.on_host(context, instance, transition.action, rule)
        base.check_lock(cell_instance)
        machine.check(cell_instance, transition)
        if metadata:
            base.check_metadata_quota(context, metadata)
        image = snapshot.create_snapshot_image(
            self.image_api,
            context,
            cell_instance,
            name,
            image_type,
            {**metadata, **(extra_properties or {})},
        )
        try:
            self.claim_task(cell_instance, transition)
            self.record_action(cctxt, cell_instance, transition)
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
            machine.CREATE_IMAGE,
            server_policies.SERVERS % "create_image",
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
            machine.BACKUP,
            create_backup_policies.RULE,
            name=name,
            image_type=snapshot.BACKUP,
            metadata=metadata,
            extra_properties={"backup_type": backup_type},
        )
        self._compute_rpcapi().backup_instance(
            cctxt, cell_instance, image["id"], backup_type, rotation
        )
        return image

    # -- shelve ---------------------------------------------------------------

    def shelve(self, context, instance, clean_shutdown: bool = True) -> None:
        """Snapshot the server as ``<name>-shelved`` and stop it: SHELVED,
        then (by ``[DEFAULT] shelved_offload_time``) SHELVED_OFFLOADED."""
        cctxt, cell_instance, image = self._start_image_task(
            context,
            instance,
            machine.SHELVE,
            shelve_policies.SHELVE,
            name=f"{instance.display_name}-shelved",
            image_type=snapshot.SNAPSHOT,
            metadata={},
        )
        self._compute_rpcapi().shelve_instance(
            cctxt, cell_instance, image["id"], clean_shutdown=clean_shutdown
        )

    def shelve_offload(self, context, instance, clean_shutdown: bool = True) -> None:
        """Free the host of a SHELVED server: SHELVED_OFFLOADED."""
        cctxt, cell_instance = self.start_action(
            context, instance, machine.SHELVE_OFFLOAD, shelve_policies.SHELVE_OFFLOAD
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
        policy.authorize(context, shelve_policies.UNSHELVE, base.target(instance))
        if host:
            policy.authorize(
                context, shelve_policies.UNSHELVE_TO_HOST, base.target(instance)
            )
        cctxt, cell_instance = self.in_cell(context, instance, machine.UNSHELVE.action)
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.UNSHELVE)
        request_spec = objects.RequestSpec.get_by_instance_uuid(context, instance.uuid)
        if cell_instance.vm_state == vm_states.SHELVED:
            if az_given or host:
                raise exception.UnshelveInstanceInvalidState(
                    instance_uuid=instance.uuid
                )
        else:
            if new_az:
                zones.check_available(context, new_az)
            if az_given:
                request_spec.availability_zone = new_az
                cell_instance.availability_zone = new_az
            if host:
                request_spec.requested_destination = checks.destination(context, host)
                if new_az:
                    zones.check_host_in_zone(context, host, new_az)
        self.claim_task(cell_instance, machine.UNSHELVE)
        self.record_action(cctxt, cell_instance, machine.UNSHELVE)
        if az_given:
            request_spec.save()
        # To the superconductor: the API-level context, not the cell's.
        self._compute_task_api().unshelve_instance(context, cell_instance, request_spec)
