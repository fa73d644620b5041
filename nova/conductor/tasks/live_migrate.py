"""The superconductor's live migration.

As for a cold migration, the source allocation goes to a new migration
record (type ``live-migration``) and the scheduler claims the destination
for the instance; the destination is asked whether it can take the guest,
then the source is told to move it. A failure up to there gives the source
allocation back, marks the migration ``error`` and leaves the server
running where it was, with a fault saying why.
"""

from __future__ import annotations

from nova.conductor.tasks import migrate as migrate_task
from nova.states import task_states

LIVE_MIGRATE_EVENT = "conductor_live_migrate_instance"
LIVE_MIGRATION = "live-migration"


class LiveMigrationTask(migrate_task.MigrationTask):
    """Live-migrate ``instance`` (task state MIGRATING, set by the API)
    where ``request_spec`` allows."""

    def __init__(
        self,
        context,
        instance,
        request_spec,
        block_migration: bool,
        disk_over_commit: bool,
        scheduler_client,
        compute_rpcapi,
        host: str,
    ) -> None:
        super().__init__(
            context,
            instance,
            None,
            request_spec,
            True,
            scheduler_client,
            compute_rpcapi,
            host,
        )
        self.block_migration = block_migration
        self.disk_over_commit = disk_over_commit
        self.migrate_data: dict = {}

    event = LIVE_MIGRATE_EVENT
    migration_type = LIVE_MIGRATION
    task_state = task_states.MIGRATING

    def _check_destination(self, selection) -> None:
        self.migrate_data = self.compute_rpcapi.check_can_live_migrate_destination(
            self.cell_context,
            self.instance,
            selection.service_host,
            self.block_migration,
            self.disk_over_commit,
        )

    def _start(self, selection) -> None:
        self.compute_rpcapi.live_migration(
            self.cell_context,
            self.instance,
            selection.service_host,
            self.block_migration,
            self.migration,
            self.migrate_data,
        )
