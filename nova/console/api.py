"""Console URLs: ask the instance's compute host where its console is,
then hand out a token for the console proxy."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

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
    "spice": ("spice-html5", "spice-direct"),
    "rdp": ("rdp-html5",),
    "serial": ("serial",),
    "mks": ("webmks",),
}
NOVNC = "novnc"
SPICE_HTML5 = "spice-html5"
# SPICE for native clients through a SPICE protocol proxy (2.99).
SPICE_DIRECT = "spice-direct"
SERIAL = "serial"


@dataclasses.dataclass(frozen=True)
class ConsoleKind:
    """A console type this deployment can offer: whether it is on, the
    compute RPC call that locates it, and the proxy URL users open."""

    enabled: Callable[[], bool]
    rpc_method: str
    base_url: Callable[[], str]


CONSOLES = {
    NOVNC: ConsoleKind(
        lambda: CONF.vnc.enabled,
        "get_vnc_console",
        lambda: CONF.vnc.novncproxy_base_url,
    ),
    SPICE_HTML5: ConsoleKind(
        lambda: CONF.spice.enabled,
        "get_spice_console",
        lambda: CONF.spice.html5proxy_base_url,
    ),
    SPICE_DIRECT: ConsoleKind(
        lambda: CONF.spice.enabled,
        "get_spice_console",
        lambda: CONF.spice.spice_direct_proxy_base_url,
    ),
    SERIAL: ConsoleKind(
        lambda: CONF.serial_console.enabled,
        "get_serial_console",
        lambda: CONF.serial_console.base_url,
    ),
}


def check_console_type(protocol: str, console_type: str) -> None:
    """Whether ``protocol``'s ``console_type`` is offered here.

    :raises ConsoleTypeInvalid: the type is not one of the protocol's.
    :raises ConsoleTypeUnavailable: a console this deployment does not offer
        (xvpvnc, RDP and MKS never; the others when not enabled).
    """
    if console_type not in PROTOCOL_TYPES.get(protocol, ()):
        raise exception.ConsoleTypeInvalid(console_type=console_type)
    kind = CONSOLES.get(console_type)
    if kind is None or not kind.enabled():
        raise exception.ConsoleTypeUnavailable(console_type=console_type)


def locate(context, instance, console_type: str) -> dict:
    """``{"host", "port"[, "tls_port"]}`` of the instance's
    ``console_type`` console, asked of its compute host.

    :raises ConsoleTypeUnavailable: the host does not offer it.
    :raises InstanceNotFound: the host does not have the instance.
    :raises MessagingTimeout: the host does not answer.
    """
    method = getattr(compute_rpcapi.ComputeAPI(), CONSOLES[console_type].rpc_method)
    return method(context, instance, console_type)


def get_console(instance, console_type: str) -> objects.ConsoleAuthToken:
    """A new ``console_type`` token of ``instance`` (loaded from its cell,
    whose context it carries), stored in the instance's cell for
    ``[consoleauth] token_ttl`` seconds.

    :raises InstanceNotReady: the instance is not on a host (yet).
    :raises ComputeServiceUnavailable: its host does not answer.
    """
    if not instance.host:
        raise exception.InstanceNotReady(instance_id=instance.uuid)
    context = instance._context
    try:
        console = locate(context, instance, console_type)
    except oslo_messaging.MessagingTimeout as exc:
        raise exception.ComputeServiceUnavailable(host=instance.host) from exc
    token = objects.ConsoleAuthToken(
        context,
        console_type=console_type,
        host=console["host"],
        port=console["port"],
        tls_port=console.get("tls_port"),
        instance_uuid=instance.uuid,
        access_url_base=CONSOLES[console_type].base_url(),
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
