"""Deleting servers: delete, the soft delete that
``[DEFAULT] reclaim_instance_interval`` turns it into, restore and
forceDelete."""

from __future__ import annotations

import logging

import nova.conf
import placement_client.exception as placement_exc
from nova import context as nova_context
from nova import exception, objects, placement, policy, servicegroup
from nova.compute.api import base
from nova.compute.shelved_images import forget_shelved_image
from nova.notifications import instance as instance_notifications
from nova.objects import base as obj_base
from nova.policies import deferred_delete as deferred_delete_policies
from nova.policies import servers as server_policies
from nova.states import machine, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Reads and compare-and-swaps of a delete racing its server's build.
LOCAL_DELETE_ATTEMPTS = 3
SHELVED_STATES = (vm_states.SHELVED, vm_states.SHELVED_OFFLOADED)


class DeleteAPI(base.FlowAPI):
    """Deleting a server, wherever it is in its life."""

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
        policy.authorize(
            context, server_policies.SERVERS % "delete", base.target(instance)
        )
        base.check_lock(instance)
        if CONF.reclaim_instance_interval > 0 and self._soft_delete(context, instance):
            return
        self._hard_delete(context, instance)

    def _hard_delete(self, context, instance) -> None:
        mapping = self.mapping(context, instance.uuid)
        # Its server group stops counting it at once, wherever it is.
        objects.InstanceGroup.remove_members(context, [instance.uuid])
        if mapping.cell_mapping is None:
            try:
                objects.BuildRequest.get_by_instance_uuid(
                    context, instance.uuid
                ).destroy()
            except exception.BuildRequestNotFound:
                mapping = self.mapping(context, instance.uuid)
            else:
                self._queue_for_delete(mapping)
                return
            if mapping.cell_mapping is None:
                raise exception.InstanceNotFound(instance_id=instance.uuid)
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            self._delete_in_cell(cctxt, mapping, instance.uuid)
        # The conductor may have created the instance in its cell but not yet
        # retired its build request: it must not outlive the server.
        try:
            objects.BuildRequest.get_by_instance_uuid(context, instance.uuid).destroy()
        except exception.BuildRequestNotFound:
            pass
        self._queue_for_delete(mapping)

    def _delete_in_cell(self, cctxt, mapping, instance_uuid: str) -> None:
        """Delete the instance here when no running compute holds it, else
        have its host terminate it.

        A build races this: its host may take the instance between our read
        and our write. The local delete is a compare-and-swap on the states
        read, so a lost race is seen and the instance is read again and
        handed to the host that took it.
        """
        for _attempt in range(LOCAL_DELETE_ATTEMPTS):
            try:
                cell_instance = objects.Instance.get_by_uuid(cctxt, instance_uuid)
            except exception.InstanceNotFound:
                return  # deleted meanwhile: what the caller asked for
            if cell_instance.vm_state in SHELVED_STATES:
                # The snapshot the shelve kept would outlive the server.
                forget_shelved_image(cctxt, cell_instance)
            if (
                not mapping.cell_mapping.is_cell0()
                and cell_instance.host
                and self._compute_is_up(cctxt, cell_instance.host)
            ):
                self._terminate_on_host(cctxt, cell_instance)
                return
            try:
                with instance_notifications.action(
                    cctxt, cell_instance, None, "delete", binary="nova-api"
                ):
                    self._local_delete(cell_instance)
            except (
                exception.UnexpectedTaskStateError,
                exception.UnexpectedVMStateError,
                exception.ObjectActionError,
            ) as exc:
                LOG.info(
                    "Instance %s changed while being deleted (%s); reading it again",
                    instance_uuid,
                    exc,
                )
            else:
                if cell_instance.host:
                    # A down host's ports are given back here instead.
                    self._deallocate_network(cctxt, cell_instance)
                return
        raise exception.InstanceInvalidState(
            instance_uuid=instance_uuid,
            attr="task_state",
            state=cell_instance.task_state,
            method="delete",
        )

    def _soft_delete(self, context, instance) -> bool:
        """Power the server off and keep it, resources and all, for
        ``reclaim_instance_interval`` seconds (``SOFT_DELETED``); the host's
        periodic reclaim deletes it after that unless it is restored.

        False when a soft delete does not apply: never launched, not on a
        host, that host's service is down, or already soft-deleted; the
        caller deletes it for good then.
        """
        mapping = self.mapping(context, instance.uuid)
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
            machine.check(cell_instance, machine.SOFT_DELETE)
            cell_instance.deleted_at = obj_base.utcnow()
            self.claim_task(cell_instance, machine.SOFT_DELETE)
            self.record_action(cctxt, cell_instance, machine.SOFT_DELETE)
            self._compute_rpcapi().soft_delete_instance(cctxt, cell_instance)
        return True

    def restore(self, context, instance) -> None:
        """Bring a soft-deleted server back (the ``restore`` action).

        :raises InstanceInvalidState: (409) it is not soft-deleted.
        """
        cctxt, cell_instance = self.on_host(
            context, instance, machine.RESTORE.action, deferred_delete_policies.RESTORE
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.RESTORE)
        cell_instance.deleted_at = None
        self.claim_task(cell_instance, machine.RESTORE)
        self.record_action(cctxt, cell_instance, machine.RESTORE)
        self._compute_rpcapi().restore_instance(cctxt, cell_instance)

    def force_delete(self, context, instance) -> None:
        """Delete a server at once, soft-deleted or not (``forceDelete``).

        :raises InstanceInvalidState: (409) it is busy with another task.
        """
        policy.authorize(context, deferred_delete_policies.FORCE, base.target(instance))
        base.check_lock(instance)
        machine.check(instance, machine.FORCE_DELETE)
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
        try:
            service = objects.Service.get_by_compute_host(cctxt, host)
        except exception.ComputeHostNotFound:
            return False
        return servicegroup.service_is_up(service)

    @staticmethod
    def _local_delete(instance) -> None:
        """Delete an instance no running compute host holds: never built
        on one, buried in cell0, or its host's service is down.

        The rows are soft-deleted here, only if the instance is still in the
        states read (a host claiming it for its build changes them), and
        its Placement allocations are given back by consumer, whether or
        not it had a host: the scheduler claims before any host takes it.

        :raises UnexpectedTaskStateError, UnexpectedVMStateError,
            ObjectActionError: it changed meanwhile; nothing was deleted.
        """
        expected_vm_state, expected_task_state = instance.vm_state, instance.task_state
        instance.vm_state = vm_states.DELETED
        instance.task_state = None
        instance.terminated_at = obj_base.utcnow()
        try:
            instance.save(
                expected_vm_state=[expected_vm_state],
                expected_task_state=[expected_task_state],
            )
            instance.destroy()
        except exception.InstanceNotFound:
            pass
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

    def _deallocate_network(self, context, instance) -> None:
        """Give back the ports of an instance no compute will delete (its
        host is down): nothing may stay behind in the network service."""
        try:
            self.network_api.deallocate_for_instance(context, instance)
        except exception.NovaException as exc:
            LOG.warning(
                "Deleted instance %s but could not give back its ports: %s",
                instance.uuid,
                exc,
            )

    def _terminate_on_host(self, cctxt, instance) -> None:
        if instance.task_state == task_states.DELETING:
            return  # already on its way out
        self.record_action(cctxt, instance, machine.DELETE)
        instance.task_state = machine.DELETE.task_state
        instance.progress = 0
        try:
            instance.save()
        except exception.UnexpectedDeletingTaskStateError:
            return
        bdms = objects.BlockDeviceMappingList.get_by_instance_uuid(cctxt, instance.uuid)
        self._compute_rpcapi().terminate_instance(cctxt, instance, bdms)
