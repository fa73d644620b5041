"""Console URLs: ask the instance's compute host where its console is,
then hand out a token for the console proxy."""

from __future__ import annotations

import oslo_messaging
from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.compute import rpcapi as compute_rpcapi

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Which console types belong to which protocol, as upstream pairs them.
PROTOCOL_TYPES = {
    "vnc": ("novnc", "xvpvnc"),
    "spice": ("spice-html5",),
    "rdp": ("rdp-html5",),
    "serial": ("serial",),
    "mks": ("webmks",),
}
NOVNC = "novnc"


def check_console_type(protocol: str, console_type: str) -> None:
    """Only noVNC consoles are offered here.

    :raises ConsoleTypeInvalid: the type is not one of the protocol's.
    :raises ConsoleTypeUnavailable: a console this deployment does not offer.
    """
    if console_type not in PROTOCOL_TYPES.get(protocol, ()):
        raise exception.ConsoleTypeInvalid(console_type=console_type)
    if console_type != NOVNC or not CONF.vnc.enabled:
        raise exception.ConsoleTypeUnavailable(console_type=console_type)


def get_vnc_console(instance) -> objects.ConsoleAuthToken:
    """A new noVNC token of ``instance`` (loaded from its cell, whose
    context it carries), stored in the instance's cell for
    ``[consoleauth] token_ttl`` seconds.

    :raises InstanceNotReady: the instance is not on a host (yet).
    :raises ComputeServiceUnavailable: its host does not answer.
    """
    if not instance.host:
        raise exception.InstanceNotReady(instance_id=instance.uuid)
    context = instance._context
    try:
        console = compute_rpcapi.ComputeAPI().get_vnc_console(context, instance, NOVNC)
    except oslo_messaging.MessagingTimeout as exc:
        raise exception.ComputeServiceUnavailable(host=instance.host) from exc
    token = objects.ConsoleAuthToken(
        context,
        console_type=NOVNC,
        host=console["host"],
        port=console["port"],
        instance_uuid=instance.uuid,
        access_url_base=CONF.vnc.novncproxy_base_url,
    )
    token.authorize(CONF.consoleauth.token_ttl)
    return token


def find_token(context, token: str) -> objects.ConsoleAuthToken:
    """The live token ``token``, from whichever cell holds it.

    :raises InvalidToken: no cell knows it, or it expired.
    """
    for cell in objects.CellMappingList.get_all(context):
        if cell.is_cell0():
            continue
        with nova_context.target_cell(context, cell) as cctxt:
            try:
                return objects.ConsoleAuthToken.validate(cctxt, token)
            except exception.InvalidToken:
                continue
    raise exception.InvalidToken()
