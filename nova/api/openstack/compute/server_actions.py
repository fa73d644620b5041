"""``POST /servers/{server_id}/action``: one URL for many actions.

The body's single key names the action (``{"os-stop": null}``,
``{"reboot": {"type": "HARD"}}``); :data:`ACTIONS` maps each name to the
handler that implements it, which validates the whole body itself.
"""

from __future__ import annotations

from nova import exception
from nova.api.openstack.compute import (
    console_output,
    create_image,
    pause_server,
    rebuild_server,
    servers,
    suspend_server,
)
from nova.api.openstack.request import Request

ACTIONS = {
    "os-start": servers.start,
    "os-stop": servers.stop,
    "reboot": servers.reboot,
    "pause": pause_server.pause,
    "unpause": pause_server.unpause,
    "suspend": suspend_server.suspend,
    "resume": suspend_server.resume,
    "os-getConsoleOutput": console_output.get_console_output,
    "createImage": create_image.create_image,
    "createBackup": create_image.create_backup,
    "rebuild": rebuild_server.rebuild,
}


def action(req: Request, server_id: str):
    body = req.json_body()
    if not isinstance(body, dict) or len(body) != 1:
        raise exception.MalformedRequestBody(
            reason="an action body has exactly one key, the action's name"
        )
    (name,) = body
    handler = ACTIONS.get(name)
    if handler is None:
        raise exception.Invalid(f"There is no such action: {name}")
    return handler(req, server_id)
