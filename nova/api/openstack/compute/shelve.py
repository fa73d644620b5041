"""The ``shelve``, ``shelveOffload`` and ``unshelve`` server actions.

Shelving snapshots a server and stops it (SHELVED); offloading frees its
host (SHELVED_OFFLOADED); unshelving powers it on again or, once
offloaded, schedules it anew and boots it from the snapshot. All 202.
"""

from __future__ import annotations

from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import shelve as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import images as image_actions


def shelve(req: Request, server_id: str):
    context = req.nova_context
    image_actions.ImagesAPI().shelve(context, common.get_server(context, server_id))
    return json_response(None, status=202)


def shelve_offload(req: Request, server_id: str):
    context = req.nova_context
    image_actions.ImagesAPI().shelve_offload(
        context, common.get_server(context, server_id)
    )
    return json_response(None, status=202)


@validation.body(schemas.unshelve_v277, "2.77", "2.90")
@validation.body(schemas.unshelve_v291, "2.91")
def unshelve(req: Request, server_id: str):
    context = req.nova_context
    options = {}
    if req.is_supported("2.77"):
        options = req.json_body()["unshelve"] or {}
    instance = common.get_server(context, server_id)
    image_actions.ImagesAPI().unshelve(
        context,
        instance,
        new_az=options.get("availability_zone"),
        host=options.get("host"),
        az_given="availability_zone" in options,
    )
    return json_response(None, status=202)
