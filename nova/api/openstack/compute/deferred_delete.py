"""The ``restore`` and ``forceDelete`` server actions.

With ``[DEFAULT] reclaim_instance_interval`` > 0 a deleted server is only
soft-deleted; ``restore`` brings it back and ``forceDelete`` deletes it at
once.
"""

from __future__ import annotations

from nova.api.openstack.compute.servers import compute_api
from nova.api.openstack.request import Request, json_response


def restore(req: Request, server_id: str):
    context = req.nova_context
    compute_api().restore(context, compute_api().get(context, server_id))
    return json_response(None, status=202)


def force_delete(req: Request, server_id: str):
    context = req.nova_context
    compute_api().force_delete(context, compute_api().get(context, server_id))
    return json_response(None, status=202)
