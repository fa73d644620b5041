"""Moving a server: resize (with confirmResize and revertResize) and cold
migration.

Both start the conductor's migrate task (:mod:`nova.conductor.tasks.migrate`)
and wait for it to have found a destination, as upstream does: a server no
host can take is refused with 400 and left as it was. The host steps are
:mod:`nova.compute.flows.moves`.
"""

from __future__ import annotations

import nova.conf
from nova import exception, objects, policy, quota
from nova.compute.api import base, checks
from nova.objects import migration as migration_obj
from nova.policies import migrate_server as migrate_policies
from nova.policies import servers as server_policies
from nova.policies import servers_migrations as server_migrations_policies
from nova.states import machine

CONF = nova.conf.CONF

LIVE_MIGRATION = "live-migration"


def _upsize_deltas(new_flavor, old_flavor) -> dict[str, int]:
    """The cores and RAM a resize adds (a downsize adds nothing)."""
    deltas = {
        "cores": new_flavor.vcpus - old_flavor.vcpus,
        "ram": new_flavor.memory_mb - old_flavor.memory_mb,
    }
    return {resource: delta for resource, delta in deltas.items() if delta > 0}


class MovesAPI(base.FlowAPI):
    """Resize, confirm and revert it; cold migration."""

    # -- resize ---------------------------------------------------------------

    def resize(self, context, instance, flavor_ref: str) -> None:
        """Move the server to the flavor ``flavor_ref`` names; it ends
        VERIFY_RESIZE, to be confirmed or reverted.

        :raises ResizeFlavorNotFound: (400) no such enabled flavor.
        :raises CannotResizeToSameFlavor: (400) its own flavor.
        :raises CannotResizeDisk: (400) a zero root disk for a disk that
            has one.
        :raises TooManyInstances: (403) the added cores or RAM are over
            quota.
        :raises NoValidHostForMove: (400) no host can take it.
        """
        cctxt, cell_instance = self.on_host(
            context, instance, machine.RESIZE.action, server_policies.SERVERS % "resize"
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.RESIZE)
        new_flavor = self._new_flavor(context, cell_instance, flavor_ref)
        self._check_quota(context, cell_instance, new_flavor)
        self._start(
            context,
            cctxt,
            cell_instance,
            machine.RESIZE,
            new_flavor,
            same_host=CONF.allow_resize_to_same_host,
        )

    @staticmethod
    def _new_flavor(context, instance, flavor_ref: str):
        flavor_id = str(flavor_ref).rstrip("/").rsplit("/", 1)[-1]
        try:
            new_flavor = objects.Flavor.get_by_flavor_id(context, flavor_id)
        except exception.FlavorNotFound as exc:
            raise exception.ResizeFlavorNotFound() from exc
        current = instance.flavor
        if new_flavor.root_gb == 0 and current.root_gb != 0 and instance.image_ref:
            raise exception.CannotResizeDisk(
                reason="Resize to zero disk flavor is not allowed."
            )
        if new_flavor.flavorid == current.flavorid:
            raise exception.CannotResizeToSameFlavor()
        if new_flavor.disabled:
            raise exception.ResizeFlavorNotFound()
        return new_flavor

    @staticmethod
    def _check_quota(context, instance, new_flavor) -> None:
        deltas = _upsize_deltas(new_flavor, instance.flavor)
        if not deltas:
            return
        try:
            quota.enforce(
                context, deltas, instance.project_id, user_id=instance.user_id
            )
        except exception.OverQuota as exc:
            raise exception.TooManyInstances(
                quota.over_quota_message(exc, deltas)
            ) from exc

    def confirm_resize(self, context, instance) -> None:
        """Keep the new flavor: the source host deletes what is left there.

        :raises InstanceNotResized: (400) no resize waits to be confirmed.
        """
        cctxt, cell_instance, migration = self._start_on_resized(
            context,
            instance,
            machine.CONFIRM_RESIZE,
            server_policies.SERVERS % "confirm_resize",
            "confirming",
        )
        self._compute_rpcapi().confirm_resize(cctxt, cell_instance, migration)

    def revert_resize(self, context, instance) -> None:
        """Go back to the old flavor, on the source host.

        :raises InstanceNotResized: (400) no resize waits to be reverted.
        """
        cctxt, cell_instance, migration = self._start_on_resized(
            context,
            instance,
            machine.REVERT_RESIZE,
            server_policies.SERVERS % "revert_resize",
            "reverting",
        )
        self._compute_rpcapi().revert_resize(cctxt, cell_instance, migration)

    def _start_on_resized(
        self,
        context,
        instance,
        transition: machine.Transition,
        rule: str,
        status: str,
    ):
        """Authorize ``rule`` and start confirming or reverting: the
        finished migration takes ``status``; the cell's context, instance
        and the migration."""
        cctxt, cell_instance = self.on_host(context, instance, transition.action, rule)
        base.check_lock(cell_instance)
        machine.check(cell_instance, transition)
        try:
            migration = objects.Migration.get_by_instance_and_status(
                cctxt, cell_instance.uuid, "finished"
            )
        except exception.MigrationNotFoundByStatus as exc:
            raise exception.InstanceNotResized() from exc
        if transition.task_state is not None:
            self.claim_task(cell_instance, transition)
        migration.status = status
        migration.save()
        self.record_action(cctxt, cell_instance, transition)
        return cctxt, cell_instance, migration

    # -- cold migration -------------------------------------------------------

    def migrate(self, context, instance, host: str | None = None) -> None:
        """Move the server to another host (``host``, when given), with its
        flavor; it ends VERIFY_RESIZE as a resize does.

        :raises CannotMigrateToSameHost: (400) ``host`` is its own.
        :raises Invalid: (400) no compute host ``host``.
        :raises NoValidHostForMove: (400) no host can take it.
        """
        if host:
            policy.authorize(
                context, migrate_policies.MIGRATE_HOST, base.target(instance)
            )
        cctxt, cell_instance = self.on_host(
            context, instance, machine.MIGRATE.action, migrate_policies.MIGRATE
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.MIGRATE)
        if host and host == cell_instance.host:
            raise exception.CannotMigrateToSameHost()
        destination = checks.destination(context, host)
        self._start(
            context,
            cctxt,
            cell_instance,
            machine.MIGRATE,
            cell_instance.flavor,
            same_host=False,
            destination=destination,
        )

    # -- live migration -------------------------------------------------------

    def live_migrate(
        self,
        context,
        instance,
        host: str | None,
        block_migration: bool | None,
        disk_over_commit: bool = False,
        force: bool = False,
    ) -> None:
        """Move the running server to another host (``host``, when given;
        ``force`` skips the scheduler's check of it, 2.30 to 2.67) without
        stopping it, copying its disks if ``block_migration`` (None: if the
        hosts share no storage); returns once the superconductor has it.

        :raises CannotMigrateToSameHost: (400) ``host`` is its own.
        :raises Invalid: (400) no compute host ``host``.
        """
        transition = machine.LIVE_MIGRATE
        cctxt, cell_instance = self.on_host(
            context, instance, transition.action, migrate_policies.MIGRATE_LIVE
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, transition)
        if host and host == cell_instance.host:
            raise exception.CannotMigrateToSameHost()
        destination = checks.destination(context, host)
        request_spec = self._request_spec(
            context, cell_instance, False, None if force else destination
        )
        self.claim_task(cell_instance, transition)
        self.record_action(cctxt, cell_instance, transition)
        self._compute_task_api().live_migrate_instance(
            context,
            cell_instance,
            request_spec,
            block_migration,
            disk_over_commit,
            host=host if force else None,
        )

    # -- a server's migrations ------------------------------------------------

    def live_migrations_in_progress(self, context, instance) -> list:
        """The server's live migrations that are not over, newest first."""
        cctxt, _ = self.in_cell(context, instance, "migrations")
        return list(
            objects.MigrationList.get_in_progress_by_instance(
                cctxt, instance.uuid, LIVE_MIGRATION
            )
        )

    def live_migration_in_progress(self, context, instance, migration_id: int):
        """The server's live migration ``migration_id``, in progress.

        :raises MigrationNotFoundForInstance: (404) no such migration, or
            not a live one, or over.
        """
        cctxt, _ = self.in_cell(context, instance, "migrations")
        migration = objects.Migration.get_by_id_and_instance(
            cctxt, migration_id, instance.uuid
        )
        if migration.migration_type != LIVE_MIGRATION:
            raise exception.MigrationNotFoundForInstance(
                f"Migration {migration_id} for server {instance.uuid} is not "
                "live-migration."
            )
        if migration.status in migration_obj.FINISHED_MIGRATION_STATUSES:
            raise exception.MigrationNotFoundForInstance(
                f"Migration {migration_id} for server {instance.uuid} is not "
                "in progress."
            )
        return migration

    def live_migration_force_complete(self, context, instance, migration_id: int):
        """Have the running live migration ``migration_id`` finish now.

        :raises MigrationNotFoundForInstance: no such migration of it.
        :raises InvalidMigrationState: (400) it is not running.
        """
        cctxt, cell_instance, migration = self._on_live_migration(
            context,
            instance,
            migration_id,
            machine.LIVE_MIGRATION_FORCE_COMPLETE,
            server_migrations_policies.FORCE_COMPLETE,
            ("running",),
        )
        self._compute_rpcapi().live_migration_force_complete(
            cctxt, cell_instance, migration
        )

    def live_migration_abort(
        self, context, instance, migration_id: int, allow_queued: bool
    ) -> None:
        """Stop the live migration ``migration_id``: a running one, or with
        ``allow_queued`` (2.65) one not yet running; it ends ``cancelled``
        with the server where it was.

        :raises MigrationNotFoundForInstance: (404) no such migration of it.
        :raises InvalidMigrationState: (400) not in a state to abort.
        """
        allowed = ("running",)
        if allow_queued:
            allowed += migration_obj.QUEUED_LIVE_MIGRATION_STATUSES
        cctxt, cell_instance, migration = self._on_live_migration(
            context,
            instance,
            migration_id,
            machine.LIVE_MIGRATION_ABORT,
            server_migrations_policies.DELETE,
            allowed,
        )
        self._compute_rpcapi().live_migration_abort(cctxt, cell_instance, migration.id)

    def _on_live_migration(
        self, context, instance, migration_id, transition, rule, statuses
    ):
        """Authorize ``rule``, check the lock and the state machine, find
        the migration in one of ``statuses`` and record the action; the
        cell's context, instance and the migration."""
        cctxt, cell_instance = self.on_host(context, instance, transition.action, rule)
        base.check_lock(cell_instance)
        machine.check(cell_instance, transition)
        migration = objects.Migration.get_by_id_and_instance(
            cctxt, migration_id, cell_instance.uuid
        )
        if migration.status not in statuses:
            raise exception.InvalidMigrationState(
                migration_id=migration_id,
                instance_uuid=cell_instance.uuid,
                state=migration.status,
                method=transition.method,
            )
        self.record_action(cctxt, cell_instance, transition)
        return cctxt, cell_instance, migration

    # -- both -----------------------------------------------------------------

    def _start(
        self,
        context,
        cctxt,
        instance,
        transition: machine.Transition,
        flavor,
        same_host: bool,
        destination=None,
    ) -> None:
        """Claim the task, record the action and have the superconductor
        find the destination and start the move."""
        request_spec = self._request_spec(context, instance, same_host, destination)
        self.claim_task(instance, transition)
        self.record_action(cctxt, instance, transition)
        try:
            # To the superconductor: the API-level context, not the cell's.
            self._compute_task_api().migrate_server(
                context, instance, flavor, request_spec
            )
        except exception.NoValidHost as exc:
            raise exception.NoValidHostForMove(exc.format_message()) from exc

    @staticmethod
    def _request_spec(context, instance, same_host: bool, destination):
        """The instance's request spec, for a move: away from its host
        unless ``same_host``, to ``destination`` if given."""
        request_spec = objects.RequestSpec.get_by_instance_uuid(context, instance.uuid)
        request_spec.ignore_hosts = [] if same_host else [instance.host]
        request_spec.requested_destination = destination
        return request_spec
