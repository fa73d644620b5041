"""``/os-hosts``: the hosts of the nova services, for admins, until 2.42.

Deprecated upstream in favour of os-hypervisors and os-services; from 2.43
every route answers 404. Updates and power actions are calls to the
host's nova-compute, which hands them to its virt driver: a driver that
cannot do them makes the API answer 501.
"""

from __future__ import annotations

from collections import defaultdict

from nova import exception, objects, policy
from nova.api.openstack import microversion, validation
from nova.api.openstack.compute.schemas import hosts as schemas
from nova.api.openstack.request import Request, json_response
from nova.compute import host_api
from nova.policies import hosts as hosts_policies

_LAST_VERSION = "2.42"
# The API services of upstream's eventlet era registered themselves.
_API_BINARIES = ("nova-osapi_compute", "nova-metadata")


def _authorize(req: Request, rule: str):
    context = req.nova_context
    policy.authorize(context, hosts_policies.POLICY_NAME % rule, target={})
    return context


@microversion.version_handler("2.1", _LAST_VERSION)
@validation.query(schemas.index_query)
def index(req: Request):
    """The enabled services' hosts (``zone`` filters on the zone)."""
    context = _authorize(req, "list")
    zone = req.GET.get("zone")
    hosts = [
        {
            "host_name": service.host,
            "service": service.topic,
            "zone": service.availability_zone,
        }
        for _, services in host_api.gather_from_cells(
            context,
            lambda cctxt: objects.ServiceList.get_all(
                cctxt, disabled=False, set_zones=True
            ),
        )
        for service in services
        if service.binary not in _API_BINARIES
        and (not zone or service.availability_zone == zone)
    ]
    return json_response({"hosts": hosts})


def _resource(host: str, project: str, cpu: int, memory_mb: int, disk_gb: int):
    return {
        "resource": {
            "host": host,
            "project": project,
            "cpu": cpu,
            "memory_mb": memory_mb,
            "disk_gb": disk_gb,
        }
    }


def _usage_rows(host: str, node, instances) -> list[dict]:
    """(total), (used_now), (used_max), then one row per project."""
    rows = [
        _resource(host, "(total)", node.vcpus, node.memory_mb, node.local_gb),
        _resource(
            host,
            "(used_now)",
            node.vcpus_used,
            node.memory_mb_used,
            node.local_gb_used,
        ),
    ]
    per_project: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    used_max = [0, 0, 0]
    for instance in instances:
        used = (
            instance.vcpus or 0,
            instance.memory_mb or 0,
            (instance.root_gb or 0) + (instance.ephemeral_gb or 0),
        )
        for totals in (used_max, per_project[instance.project_id]):
            for index, amount in enumerate(used):
                totals[index] += amount
    rows.append(_resource(host, "(used_max)", *used_max))
    rows.extend(
        _resource(host, project, *totals) for project, totals in per_project.items()
    )
    return rows


@microversion.version_handler("2.1", _LAST_VERSION)
def show(req: Request, host_name: str):
    """Resources of the host's compute node and what its instances use."""
    context = _authorize(req, "show")
    node, instances = host_api.host_node_and_instances(context, host_name)
    return json_response({"host": _usage_rows(host_name, node, instances)})


def _call_compute(what: str, call, *args):
    """``call(*args)``; a down compute is a 400, a driver without the
    operation a 501, as upstream answers."""
    try:
        return call(*args)
    except NotImplementedError as exc:
        raise exception.FeatureNotSupported(
            message=f"Virt driver does not implement {what}."
        ) from exc
    except exception.ComputeServiceUnavailable as exc:
        raise exception.Invalid(exc.format_message()) from exc


def _enable(value: str) -> bool:
    return value.lower() == "enable"


@microversion.version_handler("2.1", _LAST_VERSION)
@validation.body(schemas.update)
def update(req: Request, host_name: str):
    """``status`` enables or disables the host, ``maintenance_mode`` puts
    it into or out of maintenance; the answer says what each became."""
    context = _authorize(req, "update")
    body = req.json_body()
    result = {"host": host_name}
    if "status" in body:
        status = _call_compute(
            "host disabled status",
            host_api.set_host_enabled,
            context,
            host_name,
            _enable(body["status"]),
        )
        if status not in ("enabled", "disabled"):
            raise exception.Invalid(str(status))
        result["status"] = status
    if "maintenance_mode" in body:
        mode = _call_compute(
            "host maintenance mode",
            host_api.host_maintenance_mode,
            context,
            host_name,
            _enable(body["maintenance_mode"]),
        )
        if mode not in ("on_maintenance", "off_maintenance"):
            raise exception.Invalid(str(mode))
        result["maintenance_mode"] = mode
    return json_response(result)


def _power_action(req: Request, host_name: str, action: str, rule: str):
    context = _authorize(req, rule)
    result = _call_compute(
        "host power management", host_api.host_power_action, context, host_name, action
    )
    return json_response({"host": host_name, "power_action": result})


@microversion.version_handler("2.1", _LAST_VERSION)
def startup(req: Request, host_name: str):
    return _power_action(req, host_name, "startup", "start")


@microversion.version_handler("2.1", _LAST_VERSION)
def shutdown(req: Request, host_name: str):
    return _power_action(req, host_name, "shutdown", "shutdown")


@microversion.version_handler("2.1", _LAST_VERSION)
def reboot(req: Request, host_name: str):
    return _power_action(req, host_name, "reboot", "reboot")
