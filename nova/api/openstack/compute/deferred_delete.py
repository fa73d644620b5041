"""The ``restore`` and ``forceDelete`` server actions.

With ``[DEFAULT] reclaim_instance_interval`` > 0 a deleted server is only
soft-deleted; ``restore`` brings it back and ``forceDelete`` deletes it at
once.
"""

from __future__ import annotations

from nova.api.openstack.compute import common
from nova.api.openstack.request import Request, json_response
from nova.compute.api import delete


def restore(req: Request, server_id: str):
    context = req.nova_context
    delete.DeleteAPI().restore(context, common.get_server(context, server_id))
    return json_response(None, status=202)


def force_delete(req: Request, server_id: str):
    context = req.nova_context
    delete.DeleteAPI().force_delete(context, common.get_server(context, server_id))
    return json_response(None, status=202)
