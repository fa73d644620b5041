"""``/os-aggregates``: host aggregates, the admin's grouping of hosts.

Every response but create's shows the aggregate with its hosts and
metadata; 2.41 adds its UUID. Actions (add_host, remove_host,
set_metadata) are POSTed to ``/os-aggregates/{id}/action``.
"""

from __future__ import annotations

from nova import exception, policy
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import aggregates as schemas
from nova.api.openstack.compute.schemas import parameter_types
from nova.api.openstack.request import Request, json_response
from nova.compute import aggregates as aggregate_api
from nova.objects import aggregate as aggregate_obj  # noqa: F401  (registers)
from nova.policies import aggregates as aggregate_policies


def _authorize(req: Request, action: str) -> None:
    policy.authorize(req.nova_context, aggregate_policies.POLICY_ROOT % action, {})


def _aggregate_id(aggregate_id: str) -> int:
    number = validation.validate_integer(aggregate_id, "id")
    if not 0 < number <= parameter_types.MAX_INT:
        # No row has an id its column cannot hold.
        raise exception.AggregateNotFound(aggregate_id=aggregate_id)
    return number


def _timestamp(value) -> str | None:
    return None if value is None else value.replace(tzinfo=None).isoformat()


def _view(req: Request, aggregate, with_members: bool = True) -> dict:
    body = {
        "id": aggregate.id,
        "name": aggregate.name,
        "availability_zone": aggregate.availability_zone,
        "created_at": _timestamp(aggregate.created_at),
        "updated_at": _timestamp(aggregate.updated_at),
        "deleted_at": None,
        "deleted": False,
    }
    if with_members:
        body["hosts"] = list(aggregate.hosts)
        body["metadata"] = dict(aggregate.metadata)
    if req.is_supported("2.41"):
        body["uuid"] = aggregate.uuid
    return body


def index(req: Request):
    _authorize(req, "index")
    aggregates = aggregate_obj.AggregateList.get_all(req.nova_context)
    return json_response({"aggregates": [_view(req, a) for a in aggregates]})


@validation.body(schemas.create)
def create(req: Request):
    # Upstream answers 200 without hosts and metadata, which are empty.
    _authorize(req, "create")
    values = req.json_body()["aggregate"]
    aggregate = aggregate_api.create(
        req.nova_context, values["name"], values.get("availability_zone")
    )
    return json_response({"aggregate": _view(req, aggregate, with_members=False)})


def show(req: Request, aggregate_id: str):
    _authorize(req, "show")
    aggregate = aggregate_obj.Aggregate.get_by_id(
        req.nova_context, _aggregate_id(aggregate_id)
    )
    return json_response({"aggregate": _view(req, aggregate)})


@validation.body(schemas.update)
def update(req: Request, aggregate_id: str):
    _authorize(req, "update")
    aggregate = aggregate_api.update(
        req.nova_context, _aggregate_id(aggregate_id), req.json_body()["aggregate"]
    )
    return json_response({"aggregate": _view(req, aggregate)})


def delete(req: Request, aggregate_id: str):
    _authorize(req, "delete")
    aggregate_api.delete(req.nova_context, _aggregate_id(aggregate_id))
    # Upstream answers 200 with no body. pecan turns an empty 200 into a 204
    # unless the body comes from a generator that yields something.
    response = json_response(None, status=200)
    response.app_iter = (chunk for chunk in [b""])
    return response


@validation.body(schemas.add_host)
def _add_host(req: Request, aggregate_id: str):
    _authorize(req, "add_host")
    host = req.json_body()["add_host"]["host"]
    return aggregate_api.add_host(req.nova_context, _aggregate_id(aggregate_id), host)


@validation.body(schemas.remove_host)
def _remove_host(req: Request, aggregate_id: str):
    _authorize(req, "remove_host")
    host = req.json_body()["remove_host"]["host"]
    try:
        return aggregate_api.remove_host(
            req.nova_context, _aggregate_id(aggregate_id), host
        )
    except (
        exception.AggregateNotFound,
        exception.AggregateHostNotFound,
        exception.ComputeHostNotFound,
    ) as exc:
        # Upstream's one message for every kind of "not there".
        raise exception.NotFound(
            f"Cannot remove host {host} in aggregate {aggregate_id}"
        ) from exc


@validation.body(schemas.set_metadata)
def _set_metadata(req: Request, aggregate_id: str):
    _authorize(req, "set_metadata")
    metadata = req.json_body()["set_metadata"]["metadata"]
    return aggregate_api.set_metadata(
        req.nova_context, _aggregate_id(aggregate_id), metadata
    )


_ACTIONS = {
    "add_host": _add_host,
    "remove_host": _remove_host,
    "set_metadata": _set_metadata,
}


def action(req: Request, aggregate_id: str):
    body = req.json_body()
    name = next(iter(body), None) if isinstance(body, dict) and len(body) == 1 else None
    if name not in _ACTIONS:
        raise exception.Invalid(f"There is no such action: {name}")
    aggregate = _ACTIONS[name](req, aggregate_id)
    return json_response({"aggregate": _view(req, aggregate)})
