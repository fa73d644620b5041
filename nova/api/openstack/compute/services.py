"""``/os-services``: the nova services of every cell, up or down."""

from __future__ import annotations

from oslo_utils import strutils, uuidutils

from nova import exception, objects, policy, scatter_gather
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute.schemas import services as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute import host_api
from nova.compute.api import zones
from nova.policies import services as services_policies

# The API services of upstream's eventlet era registered themselves; they
# are not shown.
_HIDDEN_BINARIES = ("nova-osapi_compute", "nova-metadata")


def _updated_at(service) -> str | None:
    """The service's last sign of life (heartbeat, else last update)."""
    for name in ("last_seen_up", "updated_at", "created_at"):
        value = getattr(service, name) if name in service else None
        if value is not None:
            return value.replace(tzinfo=None).strftime("%Y-%m-%dT%H:%M:%S.%f")
    return None


def _view(req: Request, service) -> dict:
    body = {
        "id": service.uuid if req.is_supported("2.53") else service.id,
        "binary": service.binary,
        "host": service.host,
        "zone": service.availability_zone,
        "status": "disabled" if service.disabled else "enabled",
        "state": "up" if zones.service_is_up(service) else "down",
        "updated_at": _updated_at(service),
        "disabled_reason": service.disabled_reason,
    }
    if req.is_supported("2.11"):
        body["forced_down"] = service.forced_down
    return body


@validation.query(schemas.index_query, "2.1", "2.74")
@validation.query(schemas.index_query_v275, "2.75")
def index(req: Request):
    context = req.nova_context
    policy.authorize(context, services_policies.BASE_POLICY_NAME % "list", target={})
    found = []
    for _, result in scatter_gather.scatter_gather_all_cells(
        context, lambda cctxt: objects.ServiceList.get_all(cctxt, set_zones=True)
    ):
        # A cell that cannot answer has no services to show.
        if not isinstance(result, BaseException):
            found.extend(result)
    host, binary = req.GET.get("host"), req.GET.get("binary")
    services = [
        _view(req, service)
        for service in found
        if service.binary not in _HIDDEN_BINARIES
        and (host is None or service.host == host)
        and (binary is None or service.binary == binary)
    ]
    return json_response({"services": services})


# -- update ---------------------------------------------------------------------


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, services_policies.BASE_POLICY_NAME % rule, target={})
    return context


def _check_updatable(binary: str) -> None:
    # Only computes act on being disabled or forced down.
    if binary != "nova-compute":
        raise exception.Invalid(
            f"Updating a {binary} service is not supported. Only "
            "nova-compute services can be updated."
        )


def _by_host_and_binary(context, body: dict):
    _check_updatable(body["binary"])
    try:
        return host_api.find_service_by_host_and_binary(
            context, body["host"], body["binary"]
        )
    except exception.ServiceNotFound as exc:
        raise exception.NotFound(
            f"Could not find binary {body['binary']} on host {body['host']}."
        ) from exc


def _enable(context, body: dict) -> dict:
    service = _by_host_and_binary(context, body)
    host_api.update_service(service, disabled=False, disabled_reason=None)
    return {"host": service.host, "binary": service.binary, "status": "enabled"}


def _disable(context, body: dict) -> dict:
    service = _by_host_and_binary(context, body)
    host_api.update_service(service, disabled=True, disabled_reason=None)
    return {"host": service.host, "binary": service.binary, "status": "disabled"}


def _disable_log_reason(context, body: dict) -> dict:
    if "disabled_reason" not in body:
        raise exception.Invalid("Missing disabled reason field")
    service = _by_host_and_binary(context, body)
    host_api.update_service(
        service, disabled=True, disabled_reason=body["disabled_reason"]
    )
    return {
        "host": service.host,
        "binary": service.binary,
        "status": "disabled",
        "disabled_reason": service.disabled_reason,
    }


def _force_down(context, body: dict) -> dict:
    if "forced_down" not in body:
        raise exception.Invalid("Missing forced_down field")
    forced_down = strutils.bool_from_string(body["forced_down"], strict=True)
    service = _by_host_and_binary(context, body)
    host_api.update_service(service, forced_down=forced_down)
    return {"host": service.host, "binary": service.binary, "forced_down": forced_down}


# Before 2.53 the URL names the action; force-down arrived in 2.11.
_ACTIONS = (
    ("enable", "2.1", _enable),
    ("disable", "2.1", _disable),
    ("disable-log-reason", "2.1", _disable_log_reason),
    ("force-down", "2.11", _force_down),
)


@microversion.version_handler("2.1", "2.52")
@validation.body(schemas.service_update, "2.1", "2.10")
@validation.body(schemas.service_update_v211, "2.11", "2.52")
def update(req: Request, service_id: str):
    """``PUT /os-services/{action}`` with the host and binary in the body."""
    context = _authorize(req, "update")
    for name, since, action in _ACTIONS:
        if name == service_id and req.is_supported(since):
            return json_response({"service": action(context, req.json_body())})
    raise exception.NotFound("Unknown action")


def _check_uuid(service_id: str) -> None:
    if not uuidutils.is_uuid_like(service_id):
        raise exception.Invalid(f"Invalid uuid {service_id}")


def _service_by_uuid(context, service_id: str):
    try:
        return host_api.find_service(context, service_id)
    except exception.ServiceNotFound as exc:
        raise exception.NotFound(f"Service {service_id} not found.") from exc


@microversion.version_handler("2.53")
@validation.body(schemas.service_update_v253)
def update(req: Request, service_id: str):  # noqa: F811  (the 2.53 handler)
    """``PUT /os-services/{service_id}``: status, reason and forced_down.

    A ``disabled_reason`` goes with status ``disabled`` and is ignored alone.
    """
    _check_uuid(service_id)
    context = _authorize(req, "update")
    body = req.json_body()
    service = _service_by_uuid(context, service_id)
    _check_updatable(service.binary)
    changes = {}
    if body.get("status") == "enabled":
        changes.update(disabled=False, disabled_reason=None)
    elif body.get("status") == "disabled":
        changes.update(disabled=True, disabled_reason=body.get("disabled_reason"))
    if "forced_down" in body:
        changes["forced_down"] = strutils.bool_from_string(
            body["forced_down"], strict=True
        )
    if not changes:
        raise exception.Invalid(
            "No updates were requested. Fields 'status' or 'forced_down' "
            "should be specified."
        )
    if body.get("status") == "enabled" and body.get("disabled_reason"):
        raise exception.Invalid(
            "Specifying 'disabled_reason' with status 'enabled' is invalid."
        )
    host_api.update_service(service, **changes)
    return json_response({"service": _view(req, service)})


# -- delete ---------------------------------------------------------------------


def delete(req: Request, service_id: str):
    """Delete a service: by database id before 2.53, by uuid from 2.53."""
    context = _authorize(req, "delete")
    if req.is_supported("2.53"):
        _check_uuid(service_id)
        service = _service_by_uuid(context, service_id)
    else:
        try:
            numeric_id = int(service_id)
        except ValueError as exc:
            raise exception.InvalidInput(reason="id must be an integer") from exc
        try:
            service = host_api.find_service(context, numeric_id)
        except exception.ServiceNotFound as exc:
            raise exception.NotFound(f"Service {service_id} not found.") from exc
        except exception.ServiceNotUnique as exc:
            raise exception.Invalid(
                f"Service id {service_id} refers to multiple services."
            ) from exc
    host_api.delete_service(context, service)
    return json_response(None, status=204)
