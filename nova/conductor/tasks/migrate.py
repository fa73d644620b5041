"""The superconductor's resize and cold migration.

The instance's allocation on its source is handed to a new migration
record (its uuid the consumer), the scheduler chooses a destination for the
new flavor and claims it for the instance, and the destination is asked to
take the move (``prep_resize``). A failure up to there gives the source
allocation back to the instance, marks the migration ``error`` and leaves
the instance as it was, with a fault saying why; the caller (nova-api,
waiting on this call) gets the failure too.
"""

from __future__ import annotations

from oslo_log import log as logging

from nova import context as nova_context
from nova import exception, objects, placement
from nova.compute import utils as compute_utils
from nova.conductor.tasks import base
from nova.notifications import events as notification_events
from nova.states import task_states

LOG = logging.getLogger(__name__)

MIGRATE_EVENT = "cold_migrate"
RESIZE = "resize"
MIGRATION = "migration"


class MigrationTask(base.TaskBase):
    """Resize ``instance`` to ``flavor`` (its own flavor, or None: a cold
    migration), whose task state the API set to RESIZE_PREP; ``context``
    is the API-level one. ``request_spec`` says where it may go (the
    source ignored unless allowed, a requested destination). Subclasses
    start other moves on the same steps (:mod:`.live_migrate`)."""

    def __init__(
        self,
        context,
        instance,
        flavor,
        request_spec,
        clean_shutdown: bool,
        scheduler_client,
        compute_rpcapi,
        host: str,
    ) -> None:
        super().__init__(context)
        self.instance = instance
        self.flavor = flavor
        self.request_spec = request_spec
        self.clean_shutdown = clean_shutdown
        self.scheduler_client = scheduler_client
        self.compute_rpcapi = compute_rpcapi
        self.host = host
        self.cell_context = None
        self.migration = None
        # Whether the source allocation is the migration's now.
        self.moved = False

    def _execute(self) -> None:
        uuid = self.instance.uuid
        mapping = objects.InstanceMapping.get_by_instance_uuid(self.context, uuid)
        with nova_context.target_cell(self.context, mapping.cell_mapping) as cctxt:
            self.instance = objects.Instance.get_by_uuid(
                cctxt, uuid, expected_attrs=["flavor", "system_metadata"]
            )
        self.cell_context = cctxt
        self.flavor = self.flavor or self.instance.flavor
        with compute_utils.EventReporter(cctxt, self.event, self.host, uuid):
            self.migration = self._create_migration()
            self.moved = placement.client().move_allocations(
                uuid, self.migration.uuid, context=self.context
            )
            selection = self._schedule()
            self.migration.dest_compute = selection.service_host
            self.migration.dest_node = selection.nodename
            self.migration.save()
            self._check_destination(selection)
        LOG.info("Moving %s from %s to %s (migration %s)", uuid,
                 self.instance.host, selection.service_host,
                 self.migration.uuid)  # fmt: skip
        self._start(selection)

    def _check_destination(self, selection) -> None:
        """What the destination must say before the move starts (nothing
        for a cold move: prep_resize checks)."""

    def _start(self, selection) -> None:
        """Hand the move to the destination."""
        self.compute_rpcapi.prep_resize(
            self.cell_context,
            self.instance,
            self.flavor,
            self.migration,
            self.request_spec,
            selection.service_host,
            selection.nodename,
            clean_shutdown=self.clean_shutdown,
        )

    #: The event of the instance action this task records.
    event = MIGRATE_EVENT
    #: The migration record's type; None: by the flavors (resize or not).
    migration_type: str | None = None
    #: The task state the API claimed for this move.
    task_state = task_states.RESIZE_PREP
    #: The status the migration record starts in (upstream's per move).
    initial_status = "pre-migrating"

    def _create_migration(self):
        instance = self.instance
        migration_type = self.migration_type or (
            MIGRATION if self.flavor.id == instance.flavor.id else RESIZE
        )
        migration = objects.Migration(
            self.cell_context,
            source_compute=instance.host,
            source_node=instance.node,
            instance_uuid=instance.uuid,
            status=self.initial_status,
            migration_type=migration_type,
            old_instance_type_id=instance.flavor.id,
            new_instance_type_id=self.flavor.id,
            cross_cell_move=False,
            hidden=False,
            user_id=self.context.user_id,
            project_id=self.context.project_id,
        )
        migration.create()
        return migration

    def _schedule(self):
        """The destination, its resources claimed for the instance."""
        spec = self.request_spec
        spec.flavor = self.flavor
        spec.num_instances = 1
        base.set_group_hosts(spec, [self.instance.uuid])
        [host_list] = self.scheduler_client.select_destinations(
            self.context,
            spec,
            [self.instance.uuid],
            return_objects=True,
            return_alternates=False,
        )
        return host_list[0]

    def rollback(self, exc: Exception) -> None:
        """The source allocation back on the instance (replacing any claim
        on a destination), the migration ``error``, the instance as it was
        with the fault."""
        notification_events.migrate_server_error(
            self.context, self.instance, self.request_spec, exc
        )
        if self.migration is not None:
            if self.moved:
                try:
                    placement.client().move_allocations(
                        self.migration.uuid, self.instance.uuid, context=self.context
                    )
                except Exception:  # left for `nova-manage placement audit`
                    LOG.exception(
                        "Could not give back the allocations of %s", self.instance.uuid
                    )
            self.migration.status = "error"
            self.migration.save()
        if self.cell_context is None:
            return
        try:
            compute_utils.add_instance_fault_from_exc(
                self.cell_context, self.instance, exc
            )
            self.instance.task_state = None
            self.instance.save(expected_task_state=self.task_state)
        except (
            exception.InstanceNotFound,
            exception.UnexpectedTaskStateError,
            exception.UnexpectedDeletingTaskStateError,
        ):
            LOG.info("Instance %s changed during its move", self.instance.uuid)
