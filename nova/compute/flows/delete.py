"""Deleting instances on this host: terminate, the soft delete and its
restore, the periodic reclaim of soft-deleted instances, and the guests
still running for instances deleted without this host (it was down)."""

from __future__ import annotations

import datetime

from oslo_log import log as logging

import nova.conf
from nova import exception, objects
from nova.compute import utils as compute_utils
from nova.compute.flows import base, volumes
from nova.notifications import instance as instance_notifications
from nova.objects import base as objects_base
from nova.states import machine, power_state, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

TERMINATE_EVENT = "compute_terminate_instance"


class DeleteFlow(base.Flow):
    """terminate_instance, soft_delete_instance, restore_instance."""

    def terminate_instance(self, context, instance) -> None:
        """Destroy the guest, free the allocations, soft-delete the instance."""
        with self.compute.instance_lock(instance.uuid):
            with (
                compute_utils.EventReporter(
                    context, TERMINATE_EVENT, self.host, instance.uuid
                ),
                instance_notifications.action(context, instance, self.host, "delete"),
            ):
                self.delete_instance(context, instance)
        self.compute.instance_lock.release(instance.uuid)

    def delete_instance(self, context, instance) -> None:
        self.driver.destroy(context, instance)
        self.deallocate_network(context, instance)
        volumes.VolumesFlow(self.compute).release_volumes(context, instance)
        # Its console URLs die with it.
        objects.ConsoleAuthToken.clean_console_auths_for_instance(
            context, instance.uuid
        )
        instance.vm_state = machine.DELETE.success
        instance.task_state = None
        instance.power_state = power_state.NOSTATE
        instance.terminated_at = objects_base.utcnow()
        try:
            instance.save()
            self.remove_allocations(context, instance)
            instance.destroy()
        except exception.InstanceNotFound:
            LOG.info("Instance %s was already deleted", instance.uuid)
            self.remove_allocations(context, instance)
        LOG.info("Instance %s deleted from %s", instance.uuid, self.host)

    def soft_delete_instance(self, context, instance) -> None:
        """Power the guest off and keep the instance (and its allocations)
        as SOFT_DELETED until it is restored or reclaimed."""
        transition = machine.SOFT_DELETE
        with self.action(
            context, instance, "soft_delete_instance", transition, notify="soft_delete"
        ):
            self.driver.power_off(instance)
            self.finish(instance, transition)

    def restore_instance(self, context, instance) -> None:
        """Power a soft-deleted instance's guest back on."""
        with self.action(
            context, instance, "restore_instance", machine.RESTORE, notify="restore"
        ):
            self.driver.power_on(context, instance, [])
            self.finish(instance, machine.RESTORE)

    def reclaim_queued_deletes(self, context) -> None:
        """Delete for good this host's instances soft-deleted longer than
        ``reclaim_instance_interval`` seconds ago."""
        interval = CONF.reclaim_instance_interval
        if interval <= 0:
            return
        instances = objects.InstanceList.get_by_filters(
            context, {"host": self.host, "vm_state": vm_states.SOFT_DELETED}
        )
        deadline = objects_base.utcnow() - datetime.timedelta(seconds=interval)
        for instance in instances:
            deleted_at = instance.deleted_at
            if instance.task_state is not None or (
                deleted_at is not None and deleted_at.replace(tzinfo=None) > deadline
            ):
                continue
            LOG.info("Reclaiming soft-deleted instance %s", instance.uuid)
            try:
                instance.task_state = task_states.DELETING
                instance.save(
                    expected_vm_state=vm_states.SOFT_DELETED, expected_task_state=[None]
                )
            except (exception.InstanceNotFound, exception.InstanceInvalidState):
                continue  # restored or deleted meanwhile
            self.terminate_instance(context, instance)

    def cleanup_running_deleted_instances(self, context) -> None:
        """Guests on this hypervisor whose instance was deleted for good
        (by the API, while this host was down or frozen): handled as
        ``running_deleted_instance_action`` says, once deleted longer than
        ``running_deleted_instance_timeout`` seconds."""
        action = CONF.running_deleted_instance_action
        if action == "noop":
            return
        deadline = objects_base.utcnow() - datetime.timedelta(
            seconds=CONF.running_deleted_instance_timeout
        )
        any_state = context.elevated(read_deleted="yes")
        for uuid in self.driver.list_instance_uuids():
            try:
                instance = objects.Instance.get_by_uuid(any_state, uuid)
            except exception.InstanceNotFound:
                continue  # not a guest nova made
            deleted_at = instance.deleted_at
            if not instance.deleted or (
                deleted_at is not None and deleted_at.replace(tzinfo=None) > deadline
            ):
                continue
            with self.compute.instance_lock(uuid):
                if action == "log":
                    LOG.warning("Deleted instance %s still runs on %s", uuid, self.host)
                elif action == "shutdown":
                    LOG.info("Powering off deleted instance %s", uuid)
                    self.power_off_for(instance, clean_shutdown=False)
                else:
                    LOG.info("Destroying the guest of deleted instance %s", uuid)
                    self.driver.destroy(context, instance)
                    self.deallocate_network(context, instance)
