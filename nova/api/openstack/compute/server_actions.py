"""``POST /servers/{server_id}/action``: one URL for many actions.

The body's single key names the action (``{"os-stop": null}``,
``{"reboot": {"type": "HARD"}}``); :data:`ACTIONS` maps each name to the
handler that implements it, which validates the whole body itself.
"""

from __future__ import annotations

from nova import exception
from nova.api.openstack.compute import (
    admin_actions,
    admin_password,
    console_output,
    create_image,
    deferred_delete,
    evacuate,
    floating_ips,
    lock_server,
    migrate_server,
    multinic,
    pause_server,
    rebuild_server,
    remote_consoles,
    rescue,
    resize_server,
    security_groups,
    servers,
    shelve,
    suspend_server,
    trigger_crash_dump,
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
    "lock": lock_server.lock,
    "unlock": lock_server.unlock,
    "os-resetState": admin_actions.reset_state,
    "changePassword": admin_password.change_password,
    "trigger_crash_dump": trigger_crash_dump.trigger_crash_dump,
    "os-getVNCConsole": remote_consoles.get_vnc_console,
    "os-getSPICEConsole": remote_consoles.get_spice_console,
    "os-getRDPConsole": remote_consoles.get_rdp_console,
    "os-getSerialConsole": remote_consoles.get_serial_console,
    "restore": deferred_delete.restore,
    "forceDelete": deferred_delete.force_delete,
    "createImage": create_image.create_image,
    "createBackup": create_image.create_backup,
    "rescue": rescue.rescue,
    "unrescue": rescue.unrescue,
    "shelve": shelve.shelve,
    "shelveOffload": shelve.shelve_offload,
    "unshelve": shelve.unshelve,
    "rebuild": rebuild_server.rebuild,
    "addSecurityGroup": security_groups.add_security_group,
    "removeSecurityGroup": security_groups.remove_security_group,
    "addFloatingIp": floating_ips.add_floating_ip,
    "removeFloatingIp": floating_ips.remove_floating_ip,
    "addFixedIp": multinic.add_fixed_ip,
    "removeFixedIp": multinic.remove_fixed_ip,
    "injectNetworkInfo": admin_actions.inject_network_info,
    "resetNetwork": admin_actions.reset_network,
    "resize": resize_server.resize,
    "confirmResize": resize_server.confirm_resize,
    "revertResize": resize_server.revert_resize,
    "migrate": migrate_server.migrate,
    "os-migrateLive": migrate_server.migrate_live,
    "evacuate": evacuate.evacuate,
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
