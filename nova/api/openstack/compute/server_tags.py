"""``/servers/{server_id}/tags`` (2.26): short labels users give servers."""

from __future__ import annotations

import jsonschema

from nova import exception
from nova.api.openstack import links, microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import parameter_types
from nova.api.openstack.compute.schemas import server_tags as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import servers as server_api
from nova.objects import TagList
from nova.policies import server_tags as policies

_TAG_VALIDATOR = jsonschema.Draft4Validator(parameter_types.tag)


def _server(req: Request, server_id: str, rule: str):
    return common.get_instance(req, server_id, policies.BASE_POLICY_NAME % rule)


def _tags_of(instance) -> list[str]:
    return [t.tag for t in TagList.get_by_resource_id(instance._context, instance.uuid)]


def _tags_of_build_request(instance) -> list[str]:
    # Not yet in a cell: the build request carries the requested tags.
    return [tag.tag for tag in instance.tags] if "tags" in instance else []


@microversion.version_handler("2.26")
def index(req: Request, server_id: str):
    instance = _server(req, server_id, "index")
    if "id" not in instance:
        return json_response({"tags": _tags_of_build_request(instance)})
    return json_response({"tags": _tags_of(instance)})


@microversion.version_handler("2.26")
def show(req: Request, server_id: str, tag: str):
    """204 if the server has the tag, else 404."""
    instance = _server(req, server_id, "show")
    tags = (
        _tags_of_build_request(instance) if "id" not in instance else _tags_of(instance)
    )
    if tag not in tags:
        raise exception.NotFound(f"Server {server_id} has no tag '{tag}'")
    return json_response(None, status=204)


@microversion.version_handler("2.26")
@validation.body(schemas.update_all)
def update_all(req: Request, server_id: str):
    instance = _server(req, server_id, "update_all")
    tags = server_api.ServersAPI().replace_tags(instance, req.json_body()["tags"])
    return json_response({"tags": tags})


@microversion.version_handler("2.26")
def update(req: Request, server_id: str, tag: str):
    """Add one tag: 201 with its location if new, 204 if it was there."""
    error = next(iter(_TAG_VALIDATOR.iter_errors(tag)), None)
    if error is not None:
        raise exception.InvalidInstanceTag(tag=tag, reason=error.message)
    instance = _server(req, server_id, "update")
    if not server_api.ServersAPI().add_tag(instance, tag):
        return json_response(None, status=204)
    location = links.resource_links(req, f"servers/{server_id}/tags", tag)[0]["href"]
    return json_response(None, status=201, headers=[("Location", location)])


@microversion.version_handler("2.26")
def delete(req: Request, server_id: str, tag: str):
    instance = _server(req, server_id, "delete")
    server_api.ServersAPI().delete_tag(instance, tag)
    return json_response(None, status=204)


@microversion.version_handler("2.26")
def delete_all(req: Request, server_id: str):
    instance = _server(req, server_id, "delete_all")
    server_api.ServersAPI().delete_tags(instance)
    return json_response(None, status=204)
