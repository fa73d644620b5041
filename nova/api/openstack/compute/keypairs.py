"""``/os-keypairs``: a user's key pairs (admins: any user's, from 2.10).

Before 2.92 a key pair created without a public key is generated and its
private key returned once; from 2.92 keys are only imported.
"""

from __future__ import annotations

from nova import crypto, exception, objects, policy, quota
from nova.api.openstack import links, validation
from nova.api.openstack.compute import common
from nova.api.openstack.compute.schemas import keypairs as schemas
from nova.api.openstack.request import Request, json_response
from nova.notifications import events as notification_events
from nova.objects import keypair as keypair_obj
from nova.policies import keypairs as keypair_policies

COLLECTION = "os-keypairs"


def _timestamp(value) -> str | None:
    return None if value is None else value.replace(tzinfo=None).isoformat()


def _owner(req: Request, rule: str, requested_user_id: str | None = None) -> str:
    """The user whose key pairs the request is about, once it may act on
    them: the caller, or (2.10+, admins by default) the user it names."""
    context = req.nova_context
    user_id = requested_user_id
    if user_id is None and req.is_supported("2.10"):
        user_id = req.GET.get("user_id")
    user_id = user_id or context.user_id
    policy.authorize(
        context,
        keypair_policies.POLICY_ROOT % rule,
        {"user_id": user_id, "project_id": context.project_id},
    )
    return user_id


def _view(req: Request, keypair, *fields: str) -> dict:
    body = {
        "name": keypair.name,
        "public_key": keypair.public_key,
        "fingerprint": keypair.fingerprint,
    }
    if req.is_supported("2.2"):
        body["type"] = keypair.type
    for name in fields:
        body[name] = getattr(keypair, name)
    return body


def _fingerprint(key_type: str, public_key: str) -> str:
    if key_type == keypair_obj.KEYPAIR_TYPE_X509:
        return crypto.x509_fingerprint(public_key)
    return crypto.ssh_fingerprint(public_key)


def _create(req: Request, key_type: str, user_id: str | None):
    context = req.nova_context
    values = req.json_body()["keypair"]
    owner = _owner(req, "create", user_id)
    try:
        quota.enforce(context, {"key_pairs": 1}, context.project_id, user_id=owner)
    except exception.OverQuota as exc:
        raise exception.KeypairLimitExceeded() from exc

    private_key = None
    public_key = values.get("public_key")
    if public_key is None:
        private_key, public_key, fingerprint = crypto.generate_ssh_key_pair()
    else:
        fingerprint = _fingerprint(key_type, public_key)
    keypair = objects.KeyPair(
        context,
        name=values["name"],
        user_id=owner,
        type=key_type,
        public_key=public_key,
        fingerprint=fingerprint,
    )
    action = "create" if private_key is not None else "import"
    notification_events.keypair(context, keypair, action, "start")
    keypair.create()
    notification_events.keypair(context, keypair, action, "end")
    try:
        quota.recheck(context, ["key_pairs"], context.project_id, user_id=owner)
    except exception.OverQuota as exc:
        objects.KeyPair.destroy_by_name(context, owner, keypair.name)
        raise exception.KeypairLimitExceeded() from exc

    body = _view(req, keypair, "user_id")
    if private_key is not None:
        body["private_key"] = private_key
    return json_response(
        {"keypair": body}, status=201 if req.is_supported("2.2") else 200
    )


@validation.body(schemas.create, "2.1", "2.1")
@validation.body(schemas.create_v22, "2.2", "2.9")
@validation.body(schemas.create_v210, "2.10", "2.91")
@validation.body(schemas.create_v292, "2.92")
def create(req: Request):
    values = req.json_body()["keypair"]
    key_type = values.get("type", keypair_obj.KEYPAIR_TYPE_SSH)
    return _create(req, key_type, values.get("user_id"))


@validation.query(schemas.index_query, "2.1", "2.9")
@validation.query(schemas.index_query_v210, "2.10", "2.34")
@validation.query(schemas.index_query_v235, "2.35", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def index(req: Request):
    context = req.nova_context
    owner = _owner(req, "index")
    limit = marker = None
    if req.is_supported("2.35"):
        limit, marker = common.limit_and_marker(req)
    try:
        keypairs = objects.KeyPairList.get_by_user(context, owner, limit, marker)
    except exception.MarkerNotFound as exc:
        raise exception.Invalid(f"marker [{marker}] not found") from exc
    body: dict = {
        "keypairs": [{"keypair": _view(req, keypair)} for keypair in keypairs]
    }
    if req.is_supported("2.35"):
        next_links = links.collection_links(
            req, COLLECTION, [{"name": k.name} for k in keypairs], "name"
        )
        if next_links:
            body["keypairs_links"] = next_links
    return json_response(body)


@validation.query(schemas.show_query, "2.1", "2.9")
@validation.query(schemas.show_query_v210, "2.10", "2.74")
@validation.query(schemas.show_query_v275, "2.75")
def show(req: Request, keypair_name: str):
    context = req.nova_context
    owner = _owner(req, "show")
    keypair = objects.KeyPair.get_by_name(context, owner, keypair_name)
    body = _view(req, keypair, "user_id", "id")
    body.update(
        created_at=_timestamp(keypair.created_at),
        updated_at=_timestamp(keypair.updated_at),
        # Key pairs are deleted for real; the fields stay for clients.
        deleted=False,
        deleted_at=None,
    )
    return json_response({"keypair": body})


@validation.query(schemas.show_query, "2.1", "2.9")
@validation.query(schemas.show_query_v210, "2.10", "2.74")
@validation.query(schemas.show_query_v275, "2.75")
def delete(req: Request, keypair_name: str):
    context = req.nova_context
    owner = _owner(req, "delete")
    keypair = objects.KeyPair.get_by_name(context, owner, keypair_name)
    notification_events.keypair(context, keypair, "delete", "start")
    objects.KeyPair.destroy_by_name(context, owner, keypair_name)
    notification_events.keypair(context, keypair, "delete", "end")
    return json_response(None, status=204 if req.is_supported("2.2") else 202)
