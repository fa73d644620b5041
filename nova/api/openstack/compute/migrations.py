"""``/os-migrations``: the migrations of every cell, for admins.

2.23 shows the migration type and links in-progress live migrations to
their server; 2.59 shows uuids and pages by them, newest first, with
changes-since; 2.66 adds changes-before; 2.80 shows and filters by the
user and project that started each migration.
"""

from __future__ import annotations

from oslo_utils import strutils, timeutils

from nova import exception, objects, policy
from nova.api.openstack import links, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import migrations as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute import host_api
from nova.policies import migrations as migrations_policies

_FIELDS = (
    "id",
    "source_compute",
    "dest_compute",
    "source_node",
    "dest_node",
    "dest_host",
    "old_instance_type_id",
    "new_instance_type_id",
    "instance_uuid",
    "status",
)
# Live migrations in these states link to their server's migration.
_LIVE_MIGRATION_IN_PROGRESS = ("queued", "preparing", "running", "post-migrating")
_FILTERS = (
    "status",
    "host",
    "instance_uuid",
    "source_compute",
    "migration_type",
    "user_id",
    "project_id",
)


def _view(req: Request, migration) -> dict:
    body = {name: getattr(migration, name) for name in _FIELDS}
    body["created_at"] = common.datetime_str(migration.created_at)
    body["updated_at"] = common.datetime_str(migration.updated_at)
    if req.is_supported("2.23"):
        body["migration_type"] = migration.migration_type
        if (
            migration.migration_type == "live-migration"
            and migration.status in _LIVE_MIGRATION_IN_PROGRESS
        ):
            body["links"] = links.resource_links(
                req, f"servers/{migration.instance_uuid}/migrations", migration.id
            )
    if req.is_supported("2.59"):
        body["uuid"] = migration.uuid
    if req.is_supported("2.80"):
        body["user_id"] = migration.user_id
        body["project_id"] = migration.project_id
    return body


def _filters(req: Request) -> dict:
    filters = {name: req.GET[name] for name in _FILTERS if name in req.GET}
    hidden = req.GET.get("hidden", "false")
    filters["hidden"] = strutils.bool_from_string(hidden, default=False)
    for name in ("changes-since", "changes-before"):
        if name in req.GET:
            filters[name] = timeutils.parse_isotime(req.GET[name])
    since, before = filters.get("changes-since"), filters.get("changes-before")
    if since and before and since > before:
        raise exception.Invalid(
            "The value of changes-since must be less than or equal to changes-before."
        )
    return filters


@validation.query(schemas.list_query, "2.1", "2.58")
@validation.query(schemas.list_query_v259, "2.59", "2.65")
@validation.query(schemas.list_query_v266, "2.66", "2.79")
@validation.query(schemas.list_query_v280, "2.80")
def index(req: Request):
    context = req.nova_context
    policy.authorize(context, migrations_policies.POLICY_ROOT % "index", target={})
    filters = _filters(req)
    migrations = host_api.migrations(
        context, lambda cctxt: objects.MigrationList.get_by_filters(cctxt, filters)
    )
    body: dict = {}
    if req.is_supported("2.59"):
        migrations = common.page_of(req, migrations, lambda m: m.uuid)
    listed = [_view(req, m) for m in migrations]
    body["migrations"] = listed
    if req.is_supported("2.59"):
        next_link = links.collection_links(req, "os-migrations", listed, "uuid")
        if next_link:
            body["migrations_links"] = next_link
    return json_response(body)
