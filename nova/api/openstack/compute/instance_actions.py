"""``/servers/{server_id}/os-instance-actions``: what was done to a server.

Microversions: 2.21 shows the actions of deleted servers; 2.51 always
shows an action's events (tracebacks only to those the ``events`` rule
allows); 2.58 pages by request id, filters on changes-since and shows
``updated_at``; 2.62 adds each event's ``hostId`` (and ``host`` for the
``events`` rule); 2.66 filters on changes-before; 2.84 adds ``details``
for the ``events:details`` rule.
"""

from __future__ import annotations

from oslo_utils import timeutils

from nova import exception, objects, policy
from nova.api.openstack import links, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import instance_actions as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import instance_actions as ia_policies
from nova.utils import generate_hostid

_ACTION_FIELDS = (
    "action",
    "instance_uuid",
    "request_id",
    "user_id",
    "project_id",
    "start_time",
    "message",
)
_EVENT_FIELDS = ("event", "start_time", "finish_time", "result")


def _value(obj, name: str):
    value = getattr(obj, name) if name in obj else None
    return common.datetime_str(value) if hasattr(value, "strftime") else value


def _server(req: Request, server_id: str, rule: str):
    # From 2.21 a deleted server's actions can still be read.
    return common.get_instance(
        req,
        server_id,
        ia_policies.BASE_POLICY_NAME % rule,
        read_deleted=req.is_supported("2.21"),
    )


def _action_view(req: Request, action) -> dict:
    body = {name: _value(action, name) for name in _ACTION_FIELDS}
    if req.is_supported("2.58"):
        body["updated_at"] = _value(action, "updated_at")
    return body


def _allowed(context, rule: str, instance) -> bool:
    return policy.authorize(
        context,
        ia_policies.BASE_POLICY_NAME % rule,
        {"project_id": instance.project_id, "user_id": instance.user_id},
        fatal=False,
    )


def _event_view(req: Request, event, instance, with_events, with_details) -> dict:
    body = {name: _value(event, name) for name in _EVENT_FIELDS}
    if with_events:
        body["traceback"] = _value(event, "traceback")
    if req.is_supported("2.62"):
        host = _value(event, "host")
        body["hostId"] = generate_hostid(host, instance.project_id)
        if with_events:
            body["host"] = host or ""
    if req.is_supported("2.84") and with_details:
        body["details"] = _value(event, "details")
    return body


def _time_filter(req: Request, name: str):
    value = req.GET.get(name)
    return None if value is None else timeutils.parse_isotime(value)


@validation.query(schemas.list_query, "2.1", "2.57")
@validation.query(schemas.list_query_v258, "2.58", "2.65")
@validation.query(schemas.list_query_v266, "2.66")
def index(req: Request, server_id: str):
    instance = _server(req, server_id, "list")
    kwargs = {}
    if req.is_supported("2.58"):
        limit, marker = common.limit_and_marker(req)
        since = _time_filter(req, "changes-since")
        before = _time_filter(req, "changes-before")
        if since and before and since > before:
            raise exception.Invalid(
                "The value of changes-since must be less than or equal to "
                "changes-before."
            )
        kwargs = dict(
            limit=limit, marker=marker, changes_since=since, changes_before=before
        )
    actions = objects.InstanceActionList.get_by_instance_uuid(
        instance._context, instance.uuid, **kwargs
    )
    listed = [_action_view(req, action) for action in actions]
    body = {"instanceActions": listed}
    if req.is_supported("2.58"):
        path = f"servers/{server_id}/os-instance-actions"
        next_link = links.collection_links(req, path, listed, "request_id")
        if next_link:
            body["links"] = next_link
    return json_response(body)


def show(req: Request, server_id: str, request_id: str):
    instance = _server(req, server_id, "show")
    context = req.nova_context
    action = objects.InstanceAction.get_by_request_id(
        instance._context, instance.uuid, request_id
    )
    if action is None:
        raise exception.NotFound(f"Action {request_id} not found")
    body = _action_view(req, action)
    with_events = _allowed(context, "events", instance)
    if req.is_supported("2.51") or with_events:
        with_details = req.is_supported("2.84") and _allowed(
            context, "events:details", instance
        )
        events = objects.InstanceActionEventList.get_by_action(
            instance._context, action.id
        )
        body["events"] = [
            _event_view(req, event, instance, with_events, with_details)
            for event in events
        ]
    return json_response({"instanceAction": body})
