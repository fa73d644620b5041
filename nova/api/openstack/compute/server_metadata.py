"""``/servers/{server_id}/metadata``: a server's user key/value pairs."""

from __future__ import annotations

from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import server_metadata as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import servers as server_api
from nova.policies import server_metadata as policies


def _server(req: Request, server_id: str, rule: str):
    return common.get_instance(
        req, server_id, policies.BASE_POLICY_NAME % rule, ["metadata"]
    )


def index(req: Request, server_id: str):
    instance = _server(req, server_id, "index")
    return json_response({"metadata": dict(instance.metadata)})


@validation.body(schemas.create)
def create(req: Request, server_id: str):
    """Add or change the given items; the server's metadata after."""
    instance = _server(req, server_id, "create")
    merged = server_api.ServersAPI().update_instance_metadata(
        instance, req.json_body()["metadata"], replace=False
    )
    return json_response({"metadata": merged})


@validation.body(schemas.update_all)
def update_all(req: Request, server_id: str):
    """Replace the server's metadata with the given items."""
    instance = _server(req, server_id, "update_all")
    metadata = server_api.ServersAPI().update_instance_metadata(
        instance, req.json_body()["metadata"], replace=True
    )
    return json_response({"metadata": metadata})


def show(req: Request, server_id: str, key: str):
    instance = _server(req, server_id, "show")
    if key not in instance.metadata:
        raise exception.MetadataItemNotFound()
    return json_response({"meta": {key: instance.metadata[key]}})


@validation.body(schemas.update)
def update(req: Request, server_id: str, key: str):
    """Set one item; the body names the same key as the URL."""
    meta = req.json_body()["meta"]
    if key not in meta:
        raise exception.Invalid("Request body and URI mismatch")
    instance = _server(req, server_id, "update")
    server_api.ServersAPI().update_instance_metadata(instance, meta, replace=False)
    return json_response({"meta": meta})


def delete(req: Request, server_id: str, key: str):
    instance = _server(req, server_id, "delete")
    server_api.ServersAPI().delete_instance_metadata(instance, key)
    return json_response(None, status=204)
