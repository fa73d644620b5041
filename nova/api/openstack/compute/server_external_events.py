"""``/os-server-external-events``: other services telling nova what happened
to a server (a port plugged, a volume extended, ...).

Each event is answered on its own: 200 when accepted, 404 for a server
nova does not know, 422 for one without a host to tell. The response is
200 when all were accepted, 207 when some were not, and 404 when none were.
Accepted events are cast to the servers' computes.
"""

from __future__ import annotations

from nova import policy
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import server_external_events as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute.api import events as events_api
from nova.policies import server_external_events as events_policies


@validation.body(schemas.create, "2.1", "2.50")
@validation.body(schemas.create_v251, "2.51", "2.75")
@validation.body(schemas.create_v276, "2.76", "2.81")
@validation.body(schemas.create_v282, "2.82", "2.92")
@validation.body(schemas.create_v293, "2.93")
def create(req: Request):
    context = req.nova_context
    policy.authorize(context, events_policies.POLICY_ROOT % "create", target={})
    events = events_api.EventsAPI().external_instance_event(
        context, req.json_body()["events"]
    )
    status = 200 if all(event["code"] == 200 for event in events) else 207
    return json_response({"events": events}, status=status)
