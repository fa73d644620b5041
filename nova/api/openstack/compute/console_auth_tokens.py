"""``/os-console-auth-tokens/{console_token}``: what a console token opens
(for operators checking a URL a user was given)."""

from __future__ import annotations

from nova import exception, policy
from nova.api.openstack.request import Request, json_response
from nova.console import api as console_api
from nova.policies import console_auth_tokens as policies


def _token(req: Request, console_token: str):
    context = req.nova_context
    policy.authorize(context, policies.BASE_POLICY_NAME, target={})
    try:
        return console_api.find_token(context.elevated(), console_token)
    except exception.InvalidToken as exc:
        raise exception.NotFound("Token not found") from exc


def show(req: Request, console_token: str):
    token = _token(req, console_token)
    # Before 2.31 the API showed RDP tokens only.
    if not req.is_supported("2.31") and token.console_type != "rdp-html5":
        raise exception.ConsoleDetailsNotAccessible()
    console = {
        "instance_uuid": token.instance_uuid,
        "host": token.host,
        "port": token.port,
        "internal_access_path": token.internal_access_path,
    }
    # From 2.99 a native SPICE proxy learns the TLS port of spice-direct
    # consoles here.
    if req.is_supported("2.99") and token.console_type == console_api.SPICE_DIRECT:
        console["tls_port"] = token.tls_port
    return json_response({"console": console})


def delete(req: Request, console_token: str):
    """Revoke the token: its URL stops working at once."""
    _token(req, console_token).destroy()
    return json_response(None, status=204)
