"""Resize and cold migration on this host.

The steps, each a cast from the one before (upstream's flow):

* ``prep_resize`` on the destination: the scheduler claimed the new flavor
  there for the instance, the source allocation is held by the migration
  record; it records the destination and both flavors, then asks the
  source to send the guest;
* ``resize_instance`` on the source: the driver stops the guest and sends
  its disks (``migrate_disk_and_power_off``); the instance now belongs to
  the destination;
* ``finish_resize`` on the destination: the driver makes the guest with the
  new flavor (``finish_migration``): RESIZED, migration ``finished``.

Then the user (or the ``resize_confirm_window`` timer) confirms, on the
source: what was left there goes with the migration's allocation; or
reverts: the destination destroys its guest and the source brings the old
one back with the old flavor, the migration's allocation returning to the
instance. Whatever fails, the migration ends ``error`` and Placement holds
one allocation per consumer that still needs one.
"""

from __future__ import annotations

import contextlib
import functools
import threading

from oslo_log import log as logging

import nova.conf
from nova import exception, objects, placement
from nova.compute import rpcapi as compute_rpcapi
from nova.compute import snapshot
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.notifications import instance as notify
from nova.objects import migration as migration_obj
from nova.states import machine, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Where the vm_state a move started from is remembered, so that a stopped
# server comes back stopped (upstream's key).
OLD_VM_STATE = "old_vm_state"
# Upstream's default periodic spacing, at most.
UNCONFIRMED_POLL_INTERVAL = 60
# Task states in which the instance is still its source host's.
_SOURCE_TASK_STATES = (
    task_states.RESIZE_PREP,
    task_states.RESIZE_MIGRATING,
    task_states.MIGRATING,
)


def set_flavor(instance, flavor) -> None:
    """Make ``flavor`` the instance's own, with the columns that copy it."""
    instance.flavor = flavor
    instance.instance_type_id = flavor.id
    instance.memory_mb = flavor.memory_mb
    instance.vcpus = flavor.vcpus
    instance.root_gb = flavor.root_gb
    instance.ephemeral_gb = flavor.ephemeral_gb


def old_vm_state(instance) -> str:
    return (instance.system_metadata or {}).get(OLD_VM_STATE, vm_states.ACTIVE)


def _forget_move(instance) -> None:
    """The move is over: no flavor waits to be confirmed or reverted."""
    instance.old_flavor = None
    instance.new_flavor = None
    sysmeta = dict(instance.system_metadata or {})
    sysmeta.pop(OLD_VM_STATE, None)
    instance.system_metadata = sysmeta


def _save_status(migration, status: str) -> None:
    migration.status = status
    migration.save()


class MovesFlow(base.Flow):
    """Host steps of resize and cold migration."""

    def __init__(self, compute: base.ComputeHost) -> None:
        super().__init__(compute)
        self.compute_rpcapi = compute_rpcapi.ComputeAPI()
        # Live migrations aborted before they ran, by migration id.
        self._aborted: set[int] = set()
        self._aborts_lock = threading.Lock()

    @contextlib.contextmanager
    def _step(self, context, instance, migration, event: str):
        """Run one step of the move on the instance alone, recorded as the
        ``compute_<event>`` event of its action; a failure is the move's
        end (:meth:`_fail`)."""
        with self.compute.instance_lock(instance.uuid):
            try:
                with compute_utils.EventReporter(
                    context, f"compute_{event}", self.host, instance.uuid
                ):
                    yield
            except Exception as exc:  # a cast has no caller to tell
                LOG.exception("%s of instance %s failed", event, instance.uuid)
                self._fail(context, instance, migration, exc)

    def _fail(self, context, instance, migration, exc: Exception) -> None:
        """End a failed move: migration ``error``, the fault on the
        instance. Until the source has sent the guest the instance stays
        there with the source allocation back on it: as it was when
        nothing was harmed yet (a prep failure, a driver rollback), else
        ERROR. Once sent it is the destination's, ERROR, and the
        migration's hold on the source goes."""
        rolled_back = isinstance(exc, exception.InstanceFaultRollback)
        fault = exc.inner_exception if rolled_back else exc
        on_source = rolled_back or instance.task_state in _SOURCE_TASK_STATES
        notify.move_failed(context, instance, self.host, fault)
        try:
            _save_status(migration, "error")
        except Exception:  # the instance's outcome matters more
            LOG.exception("Could not mark migration %s failed", migration.uuid)
        try:
            compute_utils.add_instance_fault_from_exc(
                context, instance, fault, self.host
            )
            if on_source:
                self._give_back_to_instance(context, instance, migration)
                instance.host = migration.source_compute
                instance.node = migration.source_node
            else:
                self._drop_migration_allocation(context, migration)
            if rolled_back or instance.task_state == task_states.RESIZE_PREP:
                instance.vm_state = old_vm_state(instance)
                _forget_move(instance)
            elif instance.task_state != task_states.MIGRATING:
                # (A live migration's guest is as it was, on its source.)
                instance.vm_state = vm_states.ERROR
            instance.task_state = None
            instance.save()
        except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
            LOG.info("Instance %s was deleted during its move", instance.uuid)

    def fail_interrupted(self, context, instance, exc: Exception) -> None:
        """End a move a previous run of this service left half done, as
        if its step had failed with ``exc``."""
        in_progress = objects.MigrationList.get_in_progress_by_instance(
            context, instance.uuid
        )
        if not in_progress:
            self.end_task_with_fault(context, instance, exc, vm_states.ERROR)
            return
        LOG.warning("Ending the move of %s that a restart interrupted", instance.uuid)
        self._fail(context, instance, in_progress[0], exc)

    @staticmethod
    def _give_back_to_instance(context, instance, migration) -> None:
        """The migration's (source) allocation goes back to the instance,
        replacing what the destination claimed for it."""
        try:
            placement.client().move_allocations(
                migration.uuid, instance.uuid, context=context
            )
        except Exception:  # left for `nova-manage placement audit`
            LOG.exception(
                "Could not give the allocations of migration %s back to %s",
                migration.uuid,
                instance.uuid,
            )

    @staticmethod
    def _drop_migration_allocation(context, migration) -> None:
        try:
            placement.client().remove_allocations(migration.uuid, context=context)
        except Exception:  # left for `nova-manage placement audit`
            LOG.exception(
                "Could not remove the allocations of migration %s", migration.uuid
            )

    def _compute_id(self, node: str | None):
        compute_node = self.compute.rt.compute_nodes.get(node) if node else None
        return compute_node.id if compute_node is not None else None

    # -- the destination takes the move ---------------------------------------

    def prep_resize(
        self, context, instance, flavor, migration, node, clean_shutdown: bool
    ) -> None:
        """Record this host as the destination and both flavors on the
        instance, then have the source send the guest."""
        with self._step(context, instance, migration, "prep_resize"):
            notify.resize_prep(context, instance, self.host, flavor, "start")
            migration.dest_compute = self.host
            migration.dest_node = node or self.host
            migration.dest_host = CONF.my_ip
            migration.save()
            sysmeta = dict(instance.system_metadata or {})
            sysmeta[OLD_VM_STATE] = instance.vm_state
            instance.system_metadata = sysmeta
            instance.old_flavor = instance.flavor
            instance.new_flavor = flavor
            instance.save(expected_task_state=task_states.RESIZE_PREP)
            notify.resize_prep(context, instance, self.host, flavor, "end")
            self.compute_rpcapi.resize_instance(
                context, instance, migration, flavor, clean_shutdown
            )

    # -- the source sends the guest -------------------------------------------

    def resize_instance(
        self, context, instance, migration, flavor, clean_shutdown: bool
    ) -> None:
        """Stop the guest and send its disks; the instance now belongs to
        the destination, which finishes the move."""
        with self._step(context, instance, migration, "resize_instance"):
            _save_status(migration, "migrating")
            instance.task_state = task_states.RESIZE_MIGRATING
            instance.save(expected_task_state=task_states.RESIZE_PREP)
            notify.move(context, instance, self.host, "resize.start")
            disk_info = self.driver.migrate_disk_and_power_off(
                context,
                instance,
                migration.dest_host,
                flavor,
                [],
                None,
                *base.shutdown_timeouts(clean_shutdown),
            )
            _save_status(migration, "post-migrating")
            instance.host = migration.dest_compute
            instance.node = migration.dest_node
            instance.task_state = task_states.RESIZE_MIGRATED
            instance.save(expected_task_state=task_states.RESIZE_MIGRATING)
            notify.move(context, instance, self.host, "resize.end")
            self.compute_rpcapi.finish_resize(context, instance, migration, disk_info)

    # -- the destination makes the guest --------------------------------------

    def finish_resize(self, context, instance, migration, disk_info: str) -> None:
        """Make the guest here with the new flavor (started unless it was
        stopped): RESIZED, migration ``finished``."""
        with self._step(context, instance, migration, "finish_resize"):
            instance.task_state = task_states.RESIZE_FINISH
            instance.save(expected_task_state=task_states.RESIZE_MIGRATED)
            notify.move(context, instance, self.host, "resize_finish.start")
            resized = instance.new_flavor.id != instance.old_flavor.id
            set_flavor(instance, instance.new_flavor)
            instance.compute_id = self._compute_id(migration.dest_node)
            instance.save()
            self.driver.finish_migration(
                context,
                migration,
                instance,
                disk_info,
                [],
                snapshot.instance_image_meta(instance),
                resized,
                self.allocations(context, instance),
                power_on=old_vm_state(instance) != vm_states.STOPPED,
            )
            _save_status(migration, "finished")
            instance.power_state = self.current_power_state(instance)
            instance.vm_state = vm_states.RESIZED
            instance.task_state = None
            instance.save(expected_task_state=task_states.RESIZE_FINISH)
            notify.move(context, instance, self.host, "resize_finish.end")
            LOG.info(
                "Instance %s is resized on %s, to be confirmed or reverted",
                instance.uuid,
                self.host,
            )

    # -- confirm ------------------------------------------------------------

    def confirm_resize(self, context, instance, migration) -> None:
        """On the source: delete what is left of the guest and the
        migration's allocation; ACTIVE (or STOPPED) on the destination."""
        with self._step(context, instance, migration, "confirm_resize"):
            notify.move(context, instance, self.host, "resize_confirm.start")
            self.driver.confirm_migration(context, migration, instance, [])
            self._drop_migration_allocation(context, migration)
            _save_status(migration, "confirmed")
            instance.vm_state = machine.CONFIRM_RESIZE.end_state(old_vm_state(instance))
            _forget_move(instance)
            instance.save(expected_task_state=[None])
            notify.move(context, instance, self.host, "resize_confirm.end")
            LOG.info("Resize of %s confirmed", instance.uuid)

    def poll_unconfirmed_resizes(self, context) -> None:
        """Confirm the resizes to this host that waited longer than
        ``[DEFAULT] resize_confirm_window``."""
        window = CONF.resize_confirm_window
        if window <= 0:
            return
        migrations = objects.MigrationList.get_unconfirmed_by_dest_compute(
            context, window, self.host
        )
        for migration in migrations:
            try:
                instance = objects.Instance.get_by_uuid(
                    context, migration.instance_uuid
                )
            except exception.InstanceNotFound:
                _save_status(migration, "error")
                continue
            if instance.vm_state != vm_states.RESIZED or instance.task_state:
                LOG.info(
                    "Not confirming the resize of %s: it is %s/%s",
                    instance.uuid,
                    instance.vm_state,
                    instance.task_state,
                )
                continue
            LOG.info(
                "Confirming the resize of %s: unconfirmed for %ds",
                instance.uuid,
                window,
            )
            _save_status(migration, "confirming")
            objects.InstanceAction.action_start(
                context,
                instance.uuid,
                machine.CONFIRM_RESIZE.action,
                want_result=False,
            )
            self.compute_rpcapi.confirm_resize(context, instance, migration)

    # -- revert ---------------------------------------------------------------

    def revert_resize(self, context, instance, migration) -> None:
        """On the destination: destroy the new guest, then have the source
        bring the old one back."""
        with self._step(context, instance, migration, "revert_resize"):
            notify.move(context, instance, self.host, "resize_revert.start")
            # On the same host the source's disks are the ones kept.
            self.driver.destroy(
                context,
                instance,
                [],
                destroy_disks=migration.source_compute != self.host,
            )
            self.compute_rpcapi.finish_revert_resize(context, instance, migration)

    def finish_revert_resize(self, context, instance, migration) -> None:
        """On the source: the guest back with its old flavor, the
        migration's allocation back on the instance."""
        with self._step(context, instance, migration, "finish_revert_resize"):
            set_flavor(instance, instance.old_flavor)
            instance.host = migration.source_compute
            instance.node = migration.source_node
            instance.compute_id = self._compute_id(migration.source_node)
            instance.save()
            self._give_back_to_instance(context, instance, migration)
            before = old_vm_state(instance)
            self.driver.finish_revert_migration(
                context,
                instance,
                [],
                migration,
                power_on=before != vm_states.STOPPED,
            )
            _save_status(migration, "reverted")
            instance.power_state = self.current_power_state(instance)
            instance.vm_state = machine.REVERT_RESIZE.end_state(before)
            instance.task_state = None
            _forget_move(instance)
            instance.save(expected_task_state=task_states.RESIZE_REVERTING)
            notify.move(context, instance, self.host, "resize_revert.end")
            LOG.info("Resize of %s reverted", instance.uuid)

    # -- live migration -------------------------------------------------------

    def check_can_live_migrate_destination(
        self, context, instance, block_migration: bool, disk_over_commit: bool
    ) -> dict:
        """On the destination: whether it can take the guest; the driver's
        record of the migration (``migrate_data``)."""
        data = self.driver.check_can_live_migrate_destination(
            context, instance, None, None, block_migration, disk_over_commit
        )
        self.driver.cleanup_live_migration_destination_check(context, data)
        return data

    def live_migration(
        self, context, instance, dest: str, block_migration: bool, migration,
        migrate_data: dict,
    ) -> None:  # fmt: skip
        """On the source: have the destination prepare, then move the
        running guest; the driver calls back when it has moved (or not)."""
        with self._step(context, instance, migration, "live_migration"):
            _save_status(migration, "preparing")
            # The source's say on the destination's check: "auto" becomes
            # a copy of the disks or none, by whether the storage is shared.
            migrate_data = self.driver.check_can_live_migrate_source(
                context, instance, migrate_data
            )
            if migrate_data.get("block_migration") is not None:
                block_migration = migrate_data["block_migration"]
            migrate_data = self.compute_rpcapi.pre_live_migration(
                context, instance, block_migration, dest, migrate_data
            )
            if self._take_abort(migration):
                self._rollback_live_migration(
                    context, instance, dest, migrate_data, migration, "cancelled"
                )
                return
            _save_status(migration, "running")
            self.driver.live_migration(
                context,
                instance,
                dest,
                functools.partial(self._post_live_migration, migration=migration),
                functools.partial(self._rollback_live_migration, migration=migration),
                block_migration,
                migrate_data,
            )

    def _take_abort(self, migration) -> bool:
        """Whether an abort came for ``migration`` before it ran."""
        with self._aborts_lock:
            if migration.id in self._aborted:
                self._aborted.discard(migration.id)
                return True
        return False

    def live_migration_force_complete(self, context, instance, migration) -> None:
        """On the source: have the running live migration finish now
        (the driver pauses the guest or switches to post-copy)."""
        with compute_utils.EventReporter(
            context, "compute_live_migration_force_complete", self.host, instance.uuid
        ):
            notify.move(
                context, instance, self.host, "live_migration_force_complete.start"
            )
            self.driver.live_migration_force_complete(instance)
            notify.move(
                context, instance, self.host, "live_migration_force_complete.end"
            )

    def live_migration_abort(self, context, instance, migration_id: int) -> None:
        """On the source: stop the live migration ``migration_id``; one
        not running yet is cancelled before it starts."""
        with compute_utils.EventReporter(
            context, "compute_live_migration_abort", self.host, instance.uuid
        ):
            migration = objects.Migration.get_by_id_and_instance(
                context, migration_id, instance.uuid
            )
            notify.move(context, instance, self.host, "live_migration_abort.start")
            if migration.status in migration_obj.QUEUED_LIVE_MIGRATION_STATUSES:
                with self._aborts_lock:
                    self._aborted.add(migration.id)
            else:
                self.driver.live_migration_abort(instance)
            notify.move(context, instance, self.host, "live_migration_abort.end")

    def pre_live_migration(self, context, instance, block_migration, migrate_data):
        """On the destination, before the guest comes."""
        notify.move(context, instance, self.host, "live_migration_pre.start")
        migrate_data = self.driver.pre_live_migration(
            context, instance, None, [], None, migrate_data
        )
        notify.move(context, instance, self.host, "live_migration_pre.end")
        return migrate_data

    def _post_live_migration(
        self, context, instance, dest, block_migration, migrate_data, migration
    ) -> None:
        """On the source, the guest gone: nothing of it left here, the
        migration's hold on this host dropped; the destination finishes."""
        notify.move(context, instance, self.host, "live_migration_post.start")
        self.driver.post_live_migration(context, instance, None, migrate_data)
        self.driver.post_live_migration_at_source(context, instance, [])
        self._drop_migration_allocation(context, migration)
        _save_status(migration, "post-migrating")
        self.compute_rpcapi.post_live_migration_at_destination(
            context, instance, block_migration, dest, migration
        )
        notify.move(context, instance, self.host, "live_migration_post.end")

    def _rollback_live_migration(
        self, context, instance, dest, migrate_data, migration,
        migration_status: str = "error",
    ) -> None:  # fmt: skip
        """The guest did not move: the destination undoes its preparation,
        the move ends (the guest running here as it was). An abort ends
        it ``cancelled``, with no fault: nothing went wrong."""
        notify.move(context, instance, self.host, "live_migration_rollback.start")
        self.compute_rpcapi.rollback_live_migration_at_destination(
            context, instance, dest, migrate_data
        )
        if migration_status == "cancelled":
            self._give_back_to_instance(context, instance, migration)
            _save_status(migration, "cancelled")
            instance.task_state = None
            instance.save(expected_task_state=task_states.MIGRATING)
            LOG.info("Live migration of %s cancelled", instance.uuid)
            notify.move(context, instance, self.host, "live_migration_rollback.end")
            return
        self._fail(
            context,
            instance,
            migration,
            exception.NovaException("The live migration did not complete"),
        )
        notify.move(context, instance, self.host, "live_migration_rollback.end")

    def post_live_migration_at_destination(
        self, context, instance, block_migration: bool, migration
    ) -> None:
        """On the destination: the guest is here now, as it was there."""
        with self._step(context, instance, migration, "post_live_migration"):
            notify.move(context, instance, self.host, "live_migration_post_dest.start")
            self.driver.post_live_migration_at_destination(
                context, instance, [], block_migration
            )
            instance.host = self.host
            instance.node = migration.dest_node
            instance.compute_id = self._compute_id(migration.dest_node)
            instance.power_state = self.current_power_state(instance)
            instance.task_state = None
            instance.save(expected_task_state=task_states.MIGRATING)
            _save_status(migration, "completed")
            notify.move(context, instance, self.host, "live_migration_post_dest.end")
            LOG.info("Instance %s live-migrated to %s", instance.uuid, self.host)

    def rollback_live_migration_at_destination(
        self, context, instance, migrate_data
    ) -> None:
        """On the destination: undo what pre_live_migration prepared."""
        notify.move(context, instance, self.host, "live_migration_rollback_dest.start")
        self.driver.rollback_live_migration_at_destination(
            context, instance, [], None, migrate_data=migrate_data
        )
        notify.move(context, instance, self.host, "live_migration_rollback_dest.end")
