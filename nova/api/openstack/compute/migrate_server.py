"""The ``migrate`` and ``os-migrateLive`` server actions, for admins (202).

``migrate`` moves a server cold (2.56 lets the admin name the host);
``os-migrateLive`` moves it running: ``block_migration`` may be ``auto``
from 2.25 (disk_over_commit gone), ``force`` exists from 2.30 to 2.67.
"""

from __future__ import annotations

from oslo_utils import strutils

from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import migrate_server as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import moves


@validation.body(schemas.migrate_v256, "2.56")
def migrate(req: Request, server_id: str):
    context = req.nova_context
    host = None
    if req.is_supported("2.56"):
        host = (req.json_body()["migrate"] or {}).get("host")
    moves.MovesAPI().migrate(context, common.get_server(context, server_id), host)
    return json_response(None, status=202)


@validation.body(schemas.migrate_live, "2.1", "2.24")
@validation.body(schemas.migrate_live_v225, "2.25", "2.29")
@validation.body(schemas.migrate_live_v230, "2.30", "2.67")
@validation.body(schemas.migrate_live_v225, "2.68")
def migrate_live(req: Request, server_id: str):
    context = req.nova_context
    body = req.json_body()["os-migrateLive"]
    block_migration = body["block_migration"]
    # "auto" (None): the hosts decide, by whether they share storage.
    if block_migration == "auto":
        block_migration = None
    else:
        block_migration = strutils.bool_from_string(block_migration, strict=True)
    host = body.get("host")
    force = False
    if req.is_supported("2.30") and not req.is_supported("2.68"):
        force = strutils.bool_from_string(body.get("force", False), strict=True)
        if force and not host:
            raise exception.Invalid("Can't force to a non-provided destination")
    moves.MovesAPI().live_migrate(
        context,
        common.get_server(context, server_id),
        host,
        block_migration,
        strutils.bool_from_string(body.get("disk_over_commit", False), strict=True),
        force=force,
    )
    return json_response(None, status=202)
