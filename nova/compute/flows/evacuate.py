"""Evacuate, on this host: the destination rebuilds a server whose host is
down; the source, when it comes back, gets rid of what it left.

On the destination (``rebuild_instance`` with ``recreate``) the server is
spawned again from its image, on the node the scheduler claimed (or the
admin forced). It ends as it was (a stopped server stopped, an ERROR one
ACTIVE) or, from 2.95, stopped; the ``evacuation`` migration ends
``done``. A failure gives the server back to its dead source in ERROR,
with a fault, the migration ``failed`` and the destination's claim
dropped.

The source, at start, destroys the guests of the servers evacuated away
from it, takes its provider out of their allocations and marks their
migrations ``completed``.
"""

from __future__ import annotations

from oslo_log import log as logging

import nova.conf
from nova import exception, objects, placement
from nova.compute import snapshot
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.notifications import instance as notify
from nova.objects import base as objects_base
from nova.objects import migration as migration_obj
from nova.states import machine, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

REBUILD_EVENT = "compute_rebuild_instance"
# Evacuations whose instance the source may still hold a guest of.
_UNCLEANED_STATUSES = ["accepted", "pre-migrating", "done"]


class EvacuateFlow(base.Flow):
    """rebuild_instance (recreate) and the source's clean-up."""

    # -- the destination ------------------------------------------------------

    def rebuild_instance(
        self,
        context,
        instance,
        new_pass: str | None,
        migration,
        scheduled_node: str | None,
        target_state: str | None,
    ) -> None:
        """Spawn the server of a dead host here, on ``scheduled_node``, from
        the image it remembers."""
        with self.compute.instance_lock(instance.uuid):
            try:
                with compute_utils.EventReporter(
                    context, REBUILD_EVENT, self.host, instance.uuid
                ):
                    self._evacuate(
                        context,
                        instance,
                        new_pass,
                        migration,
                        scheduled_node or self.host,
                        target_state,
                    )
            except (
                exception.InstanceNotFound,
                exception.UnexpectedDeletingTaskStateError,
            ):
                LOG.info("Instance %s was deleted during its evacuation", instance.uuid)
            except Exception as exc:  # a cast has no caller to tell
                LOG.exception("Evacuation of instance %s failed", instance.uuid)
                self._fail(context, instance, migration, exc)

    def _evacuate(
        self, context, instance, new_pass, migration, node, target_state
    ) -> None:
        migration.dest_compute = self.host
        migration.dest_node = node
        migration.dest_host = CONF.my_ip
        migration.status = "pre-migrating"
        migration.save()
        before = instance.vm_state
        instance.host = self.host
        instance.node = node
        compute_node = self.compute.rt.compute_nodes.get(node)
        instance.compute_id = compute_node.id if compute_node else None
        notify.evacuate(context, instance, self.host)
        instance.task_state = task_states.REBUILD_BLOCK_DEVICE_MAPPING
        instance.save(expected_task_state=task_states.REBUILDING)
        instance.task_state = task_states.REBUILD_SPAWNING
        instance.save(expected_task_state=task_states.REBUILD_BLOCK_DEVICE_MAPPING)
        end_state = target_state or machine.EVACUATE.end_state(before)
        self.driver.spawn(
            context,
            instance,
            snapshot.instance_image_meta(instance),
            [],
            new_pass,
            self.allocations(context, instance),
            network_info=[],
            power_on=end_state != vm_states.STOPPED,
        )
        instance.launched_at = objects_base.utcnow()
        instance.power_state = self.current_power_state(instance)
        instance.vm_state = end_state
        instance.task_state = None
        instance.save(expected_task_state=task_states.REBUILD_SPAWNING)
        migration.status = "done"
        migration.save()
        LOG.info(
            "Instance %s evacuated from %s to %s",
            instance.uuid,
            migration.source_compute,
            self.host,
        )

    def _fail(self, context, instance, migration, exc: Exception) -> None:
        """Back on its dead source, ERROR with the fault; this host's guest
        and claim gone, the migration ``failed``."""
        try:
            migration.status = "failed"
            migration.save()
        except Exception:  # the instance's outcome matters more
            LOG.exception("Could not mark migration %s failed", migration.uuid)
        try:
            self.driver.destroy(context, instance)
        except Exception:  # the instance's outcome is recorded anyway
            LOG.exception("Could not destroy the guest of %s", instance.uuid)
        compute_node = self.compute.rt.compute_nodes.get(migration.dest_node or "")
        if compute_node is not None:
            placement.remove_provider_from_allocations(
                context, instance.uuid, compute_node.uuid
            )
        instance.host = migration.source_compute
        instance.node = migration.source_node
        self.end_task_with_fault(context, instance, exc, vm_states.ERROR)

    # -- the source, back ------------------------------------------------------

    def destroy_evacuated_instances(self, context) -> None:
        """Get rid of what is left here of the servers evacuated while this
        host was down: their guests, their allocations on its nodes."""
        evacuations = objects.MigrationList.get_by_filters(
            context,
            {
                "source_compute": self.host,
                "migration_type": migration_obj.EVACUATION,
                "status": _UNCLEANED_STATUSES,
            },
        )
        for migration in evacuations:
            try:
                instance = objects.Instance.get_by_uuid(
                    context.elevated(read_deleted="yes"), migration.instance_uuid
                )
            except exception.InstanceNotFound:
                instance = None
            if instance is not None and instance.host == self.host:
                # Not yet taken by its destination: it may still fail back.
                continue
            if instance is not None:
                LOG.info(
                    "Destroying instance %s here: it was evacuated to %s",
                    instance.uuid,
                    instance.host,
                )
                try:
                    self.driver.destroy(context, instance)
                except Exception:  # its migration stays to be retried
                    LOG.exception("Could not destroy evacuated %s", instance.uuid)
                    continue
                source_node = self._node(context, migration.source_node)
                if source_node is not None:
                    placement.remove_provider_from_allocations(
                        context, instance.uuid, source_node.uuid
                    )
            migration.status = "completed"
            migration.save()

    def _node(self, context, nodename: str | None):
        try:
            return objects.ComputeNode.get_by_host_and_nodename(
                context, self.host, nodename or self.host
            )
        except exception.NotFound:
            return None
