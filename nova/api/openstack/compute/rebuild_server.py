"""The ``rebuild`` server action: the same server from a (new) image.

Answers 202 with the server (REBUILD): until 2.75 a smaller body, from 2.75
the same as ``GET /servers/{id}``; ``adminPass`` when
``[api] enable_instance_password``.
"""

from __future__ import annotations

from oslo_utils import strutils

import nova.conf
from nova import policy
from nova.api.openstack import validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import rebuild as schemas
from nova.api.openstack.compute.views import servers as views
from nova.api.openstack.request import Request, json_response
from nova.compute.api import create
from nova.compute.api import rebuild as rebuild_api
from nova.compute.api import servers as server_api
from nova.policies import servers as server_policies

CONF = nova.conf.CONF

# Request keys that set an instance field of the same meaning.
_FIELDS = {
    "name": "display_name",
    "description": "display_description",
    "metadata": "metadata",
    "accessIPv4": "access_ip_v4",
    "accessIPv6": "access_ip_v6",
    "key_name": "key_name",
    "user_data": "user_data",
    "hostname": "hostname",
}


@validation.body(schemas.rebuild, "2.1", "2.18")
@validation.body(schemas.rebuild_v219, "2.19", "2.53")
@validation.body(schemas.rebuild_v254, "2.54", "2.56")
@validation.body(schemas.rebuild_v257, "2.57", "2.62")
@validation.body(schemas.rebuild_v263, "2.63", "2.89")
@validation.body(schemas.rebuild_v290, "2.90", "2.93")
@validation.body(schemas.rebuild_v294, "2.94")
def rebuild(req: Request, server_id: str):
    context = req.nova_context
    body = req.json_body()["rebuild"]
    instance = common.get_server(context, server_id, views.expected_attrs(req))
    if body.get("trusted_image_certificates"):
        policy.authorize(
            context,
            server_policies.SERVERS % "rebuild:trusted_certs",
            {"project_id": instance.project_id, "user_id": instance.user_id},
        )
    changes = {field: body[key] for key, field in _FIELDS.items() if key in body}
    if "OS-DCF:diskConfig" in body:
        changes["auto_disk_config"] = body["OS-DCF:diskConfig"] == "AUTO"
    # Handed on in base64, as on create: the compute decodes them.
    files = common.injected_files(body.get("personality") or [])
    password = body.get("adminPass") or create.generate_password()
    image_ref = str(body["imageRef"]).rstrip("/").rsplit("/", 1)[-1]
    rebuilt = rebuild_api.RebuildAPI().rebuild(
        context,
        instance,
        image_ref,
        password,
        files_to_inject=files,
        preserve_ephemeral=strutils.bool_from_string(
            body.get("preserve_ephemeral", False)
        ),
        **changes,
    )
    shown = common.get_server(context, rebuilt.uuid, views.expected_attrs(req))
    view = views.ServerViews(req, server_api.ServersAPI()).update(shown)
    server = view["server"]
    # Unlike show and update, upstream's rebuild answer leaves the extended
    # attribute out at 2.75+ (2.57 gives ``user_data`` itself below).
    server.pop("OS-EXT-SRV-ATTR:user_data", None)
    if req.is_supported("2.54"):
        server["key_name"] = shown.key_name
    if req.is_supported("2.57"):
        server["user_data"] = shown.user_data
    if CONF.api.enable_instance_password:
        server["adminPass"] = password
    return json_response(view, status=202)
