"""``/servers/{server_id}/migrations``: a server's live migrations in
progress, for admins (2.23).

2.59 shows each migration's uuid; 2.80 the user and project that started
it. Other moves, and live migrations that are over, are in
``/os-migrations``. A running one may be forced to complete (2.22) or
aborted (2.24; 2.65 also before it runs).
"""

from __future__ import annotations

from nova import exception
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import parameter_types
from nova.api.openstack.compute.schemas import server_migrations as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import moves
from nova.policies import servers_migrations as policies

_FIELDS = (
    "id",
    "source_compute",
    "dest_compute",
    "source_node",
    "dest_node",
    "dest_host",
    "status",
)
# Upstream names the progress fields with their unit.
_PROGRESS = (
    "memory_total",
    "memory_processed",
    "memory_remaining",
    "disk_total",
    "disk_processed",
    "disk_remaining",
)


def _migration_id(migration_id: str, server_id: str) -> int:
    """No row has an id that is not an integer its column holds."""
    try:
        number = validation.validate_integer(migration_id, "migration_id")
    except exception.InvalidInput:
        number = 0
    if not 0 < number <= parameter_types.MAX_INT:
        raise exception.MigrationNotFoundForInstance(
            migration_id=migration_id, instance_id=server_id
        )
    return number


def _view(req: Request, migration) -> dict:
    body = {name: getattr(migration, name) for name in _FIELDS}
    body.update({f"{name}_bytes": getattr(migration, name) for name in _PROGRESS})
    body["server_uuid"] = migration.instance_uuid
    body["created_at"] = common.datetime_str(migration.created_at)
    body["updated_at"] = common.datetime_str(migration.updated_at)
    if req.is_supported("2.59"):
        body["uuid"] = migration.uuid
    if req.is_supported("2.80"):
        body["user_id"] = migration.user_id
        body["project_id"] = migration.project_id
    return body


@microversion.version_handler("2.23")
def index(req: Request, server_id: str):
    instance = common.get_instance(req, server_id, policies.INDEX)
    migrations = moves.MovesAPI().live_migrations_in_progress(
        req.nova_context, instance
    )
    return json_response({"migrations": [_view(req, m) for m in migrations]})


@microversion.version_handler("2.23")
def show(req: Request, server_id: str, migration_id: str):
    instance = common.get_instance(req, server_id, policies.SHOW)
    migration = moves.MovesAPI().live_migration_in_progress(
        req.nova_context, instance, _migration_id(migration_id, server_id)
    )
    return json_response({"migration": _view(req, migration)})


@microversion.version_handler("2.22")
@validation.body(schemas.force_complete)
def action(req: Request, server_id: str, migration_id: str):
    """``{"force_complete": null}``: finish the running live migration now
    (202). A migration that is not the server's is a 400, as upstream."""
    context = req.nova_context
    try:
        moves.MovesAPI().live_migration_force_complete(
            context,
            common.get_server(context, server_id),
            _migration_id(migration_id, server_id),
        )
    except exception.MigrationNotFoundForInstance as exc:
        raise exception.Invalid(exc.format_message()) from exc
    return json_response(None, status=202)


@microversion.version_handler("2.24")
def delete(req: Request, server_id: str, migration_id: str):
    """Abort the live migration (202): a running one; from 2.65 one not
    yet running too."""
    context = req.nova_context
    moves.MovesAPI().live_migration_abort(
        context,
        common.get_server(context, server_id),
        _migration_id(migration_id, server_id),
        allow_queued=req.is_supported("2.65"),
    )
    return json_response(None, status=202)
