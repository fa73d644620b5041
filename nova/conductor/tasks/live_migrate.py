"""The superconductor's live migration.

As for a cold migration, the source allocation goes to a new migration
record (type ``live-migration``, starting ``accepted``) and the scheduler
claims the destination for the instance; a host the admin forced (2.30 to
2.67) is not checked by the scheduler, but what the instance held on the
source is claimed there all the same. The destination is asked whether it
can take the guest, then the source is told to move it. A failure up to
there gives the source allocation back, marks the migration ``error`` and
leaves the server running where it was, with a fault saying why.
"""

from __future__ import annotations

import types

from nova import placement
from nova.conductor.tasks import base
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
        forced_host: str | None = None,
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
        self.forced_host = forced_host

    event = LIVE_MIGRATE_EVENT
    migration_type = LIVE_MIGRATION
    task_state = task_states.MIGRATING
    initial_status = "accepted"

    def _schedule(self):
        if not self.forced_host:
            return super()._schedule()
        node = base.forced_destination_node(self.cell_context, self.forced_host)
        held = placement.client().get_allocations_for_consumer(
            self.migration.uuid, context=self.context
        )
        base.claim_on_forced_host(
            self.context,
            self.instance,
            self.instance.uuid,
            node,
            base.resources_held(held.allocations),
        )
        return types.SimpleNamespace(
            service_host=self.forced_host, nodename=node.hypervisor_hostname
        )

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
