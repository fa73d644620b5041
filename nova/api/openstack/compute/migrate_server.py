"""The ``migrate`` server action: cold migration, for admins (202).

2.56 lets the admin name the destination host.
"""

from __future__ import annotations

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
