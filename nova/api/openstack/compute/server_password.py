"""``/servers/{server_id}/os-server-password``: the encrypted password the
guest posted to the metadata API."""

from __future__ import annotations

from nova import policy
from nova.api.openstack.compute import common
from nova.api.openstack.request import Request, json_response
from nova.metadata import password
from nova.policies import server_password as policies


def _instance(req: Request, server_id: str, rule: str):
    context = req.nova_context
    instance = common.get_server(context, server_id, ["system_metadata"])
    policy.authorize(
        context,
        policies.BASE_POLICY_NAME % rule,
        target={"project_id": instance.project_id, "user_id": instance.user_id},
    )
    return instance


def show(req: Request, server_id: str):
    instance = _instance(req, server_id, "show")
    return json_response({"password": password.extract_password(instance) or ""})


def clear(req: Request, server_id: str):
    """Forget the password (the guest may then post a new one)."""
    instance = _instance(req, server_id, "clear")
    password.set_password(instance, "")
    return json_response(None, status=204)
