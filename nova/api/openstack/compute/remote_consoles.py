"""``/servers/{server_id}/remote-consoles``: a URL to a server's console."""

from __future__ import annotations

from nova import exception, policy
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import remote_consoles as schemas
from nova.api.openstack.request import Request, json_response
from nova.console import api as console_api
from nova.policies import remote_consoles as policies


def _console_url(req: Request, server_id: str, protocol: str, console_type: str):
    context = req.nova_context
    instance = common.get_server(context, server_id)
    policy.authorize(
        context,
        policies.BASE_POLICY_NAME,
        target={"project_id": instance.project_id, "user_id": instance.user_id},
    )
    console_api.check_console_type(protocol, console_type)
    return console_api.get_console(instance, console_type).access_url


@microversion.version_handler("2.6")
@validation.body(schemas.create_v26, "2.6", "2.7")
@validation.body(schemas.create_v28, "2.8", "2.98")
@validation.body(schemas.create_v299, "2.99")
def create(req: Request, server_id: str):
    body = req.json_body()["remote_console"]
    protocol, console_type = body["protocol"], body["type"]
    url = _console_url(req, server_id, protocol, console_type)
    return json_response(
        {"remote_console": {"protocol": protocol, "type": console_type, "url": url}}
    )


def _legacy_action(action: str, protocol: str, schema: dict):
    """The server action ``action`` of 2.1-2.5: a ``protocol`` console's
    URL as ``{"console": {"type", "url"}}``."""

    def handler(req: Request, server_id: str):
        console_type = req.json_body()[action]["type"]
        url = _console_url(req, server_id, protocol, console_type)
        return json_response({"console": {"type": console_type, "url": url}})

    # Each action's own name: microversion handlers are keyed by it.
    handler.__qualname__ = handler.__name__ = f"get_{protocol}_console"
    return microversion.version_handler("2.1", "2.5")(validation.body(schema)(handler))


get_vnc_console = _legacy_action("os-getVNCConsole", "vnc", schemas.get_vnc_console)
get_spice_console = _legacy_action(
    "os-getSPICEConsole", "spice", schemas.get_spice_console
)


@microversion.version_handler("2.1", "2.5")
def get_rdp_console(req: Request, server_id: str):
    """RDP consoles went with the Hyper-V driver: 410 Gone, as upstream."""
    raise exception.Gone()


get_serial_console = _legacy_action(
    "os-getSerialConsole", "serial", schemas.get_serial_console
)
