"""``/servers/{server_id}/remote-consoles``: a URL to a server's console."""

from __future__ import annotations

from nova import policy
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import servers
from nova.api.openstack.compute.schemas import remote_consoles as schemas
from nova.api.openstack.request import Request, json_response
from nova.console import api as console_api
from nova.policies import remote_consoles as policies


@microversion.version_handler("2.6")
@validation.body(schemas.create_v26, "2.6", "2.7")
@validation.body(schemas.create_v28, "2.8")
def create(req: Request, server_id: str):
    context = req.nova_context
    instance = servers.compute_api().get(context, server_id)
    policy.authorize(
        context,
        policies.BASE_POLICY_NAME,
        target={"project_id": instance.project_id, "user_id": instance.user_id},
    )
    body = req.json_body()["remote_console"]
    protocol, console_type = body["protocol"], body["type"]
    console_api.check_console_type(protocol, console_type)
    token = console_api.get_vnc_console(instance)
    return json_response(
        {
            "remote_console": {
                "protocol": protocol,
                "type": console_type,
                "url": token.access_url,
            }
        }
    )
