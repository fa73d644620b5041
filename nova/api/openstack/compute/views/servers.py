"""The server representation, per microversion.

``FIELDS`` is the whole body in one table: each entry names the
microversion range it appears in, the views that show it and a function
computing it. A view (:meth:`ServerViews.show`, ``detail``, ``update``)
takes the entries that match the request and merges their output, so no
view carries its own version checks.

Views:

* ``show`` — ``GET /servers/{id}``;
* ``detail`` — each server of ``GET /servers/detail`` (no server groups);
* ``update`` — ``PUT /servers/{id}``: until 2.75 a smaller body (no
  extended attributes), from 2.75 the same as ``show``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nova import policy, utils
from nova.api.openstack import links
from nova.api.openstack.compute import common
from nova.api.openstack.compute.views.addresses import addresses
from nova.api.openstack.request import Request
from nova.policies import extended_server_attributes as esa_policies
from nova.policies import servers as server_policies

COLLECTION = "servers"

SHOW, DETAIL, UPDATE = "show", "detail", "update"
ALL_VIEWS = frozenset({SHOW, DETAIL, UPDATE})
SHOW_AND_DETAIL = frozenset({SHOW, DETAIL})

# Statuses in which a server shows its build progress.
PROGRESS_STATUSES = (
    "ACTIVE",
    "BUILD",
    "REBUILD",
    "RESIZE",
    "VERIFY_RESIZE",
    "MIGRATING",
)
# Statuses in which a server shows why it failed.
FAULT_STATUSES = ("ERROR", "DELETED")


def isotime(value) -> str | None:
    """``2013-09-03T04:01:32Z``: how created/updated times are shown."""
    return None if value is None else value.strftime("%Y-%m-%dT%H:%M:%SZ")


def _usage_time(value) -> str | None:
    """``2013-09-23T13:37:00.880302``: how launched/terminated are shown."""
    return None if value is None else value.replace(tzinfo=None).isoformat()


def _get(instance, name: str, default: Any = None) -> Any:
    return getattr(instance, name) if name in instance else default


UNKNOWN = "UNKNOWN"


def _addresses(instance) -> dict[str, list[dict]]:
    """The addresses in the instance's network info cache (a build request
    has none yet)."""
    cache = _get(instance, "info_cache")
    return addresses(cache.network_info if cache is not None else None, detailed=True)


def is_from_down_cell(instance) -> bool:
    """A minimal record of an instance whose cell could not be reached
    (:func:`nova.compute.instance_list.minimal_instance`)."""
    return "display_name" not in instance and "id" not in instance


class _FlavorHolder:
    """Lends a flavor to the field builders that read ``instance.flavor``."""

    def __init__(self, flavor) -> None:
        self.flavor = flavor

    def __contains__(self, name: str) -> bool:
        return name == "flavor"


class ServerViews:
    """Builds server bodies for one request; what several servers share
    (policy decisions, zones, request specs, services) is looked up once."""

    def __init__(self, req: Request, servers) -> None:
        self.req = req
        self.context = req.nova_context
        self.servers = servers
        self._cache: dict[str, Any] = {}
        # The servers of the body being built, for lookups done once.
        self._instances: list = []

    # -- shared lookups ----------------------------------------------------

    def _once(self, name: str, compute: Callable[[], Any]) -> Any:
        if name not in self._cache:
            self._cache[name] = compute()
        return self._cache[name]

    def allowed(self, rule: str, instance=None) -> bool:
        target = (
            {"project_id": instance.project_id, "user_id": instance.user_id}
            if instance is not None
            else None
        )
        key = f"policy:{rule}:{target and target['project_id']}"
        return self._once(
            key, lambda: policy.authorize(self.context, rule, target, fatal=False)
        )

    def volumes_attached(self, instance) -> list[dict]:
        """The server's volumes: ``{"id": ...}``, with
        ``delete_on_termination`` from 2.3. A server still being built
        (no cell yet) has none."""
        from nova.compute.api import volumes as volumes_api

        context = getattr(instance, "_context", None)
        if context is None or _get(instance, "id") is None:
            return []
        try:
            bdms = volumes_api.volume_bdms(context, instance.uuid)
        except Exception:  # noqa: BLE001 - a build request's context
            return []
        show_delete = self.req.is_supported("2.3")
        return [
            {"id": bdm.volume_id}
            | (
                {"delete_on_termination": bdm.delete_on_termination}
                if show_delete
                else {}
            )
            for bdm in bdms
        ]

    def host_zones(self) -> dict[str, str]:
        return self._once("zones", lambda: self.servers.host_zones(self.context))

    def request_spec(self, instance):
        specs = self._once("specs", dict)
        if instance.uuid not in specs:
            specs.update(
                self.servers.request_specs(
                    self.context, [i.uuid for i in self._instances or [instance]]
                )
            )
            specs.setdefault(instance.uuid, None)
        return specs[instance.uuid]

    def security_groups(self, instance) -> list[dict]:
        groups = self._once(
            "security_groups",
            lambda: self.servers.security_groups(self.context, self._instances),
        )
        return groups.get(instance.uuid, [])

    def host_service(self, instance):
        services = self._once(
            "services",
            lambda: self.servers.compute_services_by_host(
                self.context, self._instances or [instance]
            ),
        )
        return services.get(instance.host)

    # -- views -------------------------------------------------------------

    def _build(self, instance, view: str) -> dict:
        body: dict[str, Any] = {}
        for entry in FIELDS:
            if view in entry.views and entry.applies(self.req, view):
                body.update(entry.build(self, instance))
        return body

    def show(self, instance) -> dict:
        self._instances = [instance]
        if is_from_down_cell(instance):
            return {"server": self._down_cell_show(instance)}
        return {"server": self._build(instance, SHOW)}

    # -- servers of an unreachable cell (2.69) ------------------------------

    def _down_cell_index(self, instance) -> dict:
        return {
            "id": instance.uuid,
            "status": UNKNOWN,
            "links": links.resource_links(self.req, COLLECTION, instance.uuid),
        }

    def _down_cell_detail(self, instance) -> dict:
        return {
            **self._down_cell_index(instance),
            "tenant_id": instance.project_id,
            "created": isotime(_get(instance, "created_at")),
        }

    def _down_cell_show(self, instance) -> dict:
        """What the API database knows: owner, creation, and from the
        request spec the flavor, image and requested zone."""
        spec = self.request_spec(instance)
        body = {
            **self._down_cell_detail(instance),
            "user_id": instance.user_id,
            "OS-EXT-AZ:availability_zone": (
                getattr(spec, "availability_zone", None) or UNKNOWN
            ),
            "OS-EXT-STS:power_state": 0,
            "image": "",
            "flavor": {},
        }
        image = getattr(spec, "image", None) if spec is not None else None
        image_id = getattr(image, "id", None) if image is not None else None
        if image_id:
            body["image"] = {
                "id": image_id,
                "links": links.image_bookmark_link(self.req, image_id),
            }
        if spec is not None and "flavor" in spec:
            probe = _FlavorHolder(spec.flavor)
            body.update(_flavor_embedded(self, probe))
        if self.req.is_supported("2.71"):
            body["server_groups"] = []
        return body

    def update(self, instance) -> dict:
        self._instances = [instance]
        view = SHOW if self.req.is_supported("2.75") else UPDATE
        return {"server": self._build(instance, view)}

    def detail(self, instances: list) -> dict:
        self._instances = [i for i in instances if not is_from_down_cell(i)]
        body = {
            "servers": [
                self._down_cell_detail(i)
                if is_from_down_cell(i)
                else self._build(i, DETAIL)
                for i in instances
            ]
        }
        return self._with_links(body, instances, f"{COLLECTION}/detail")

    def index(self, instances: list) -> dict:
        body = {
            "servers": [
                self._down_cell_index(instance)
                if is_from_down_cell(instance)
                else {
                    "id": instance.uuid,
                    "name": instance.display_name,
                    "links": links.resource_links(self.req, COLLECTION, instance.uuid),
                }
                for instance in instances
            ]
        }
        return self._with_links(body, instances, COLLECTION)

    def _with_links(self, body: dict, instances: list, path: str) -> dict:
        next_links = links.collection_links(
            self.req, path, [{"id": i.uuid} for i in instances], "id"
        )
        if next_links:
            body["servers_links"] = next_links
        return body

    def create(self, instance, admin_password: str | None, security_groups) -> dict:
        server = {
            "id": instance.uuid,
            "links": links.resource_links(self.req, COLLECTION, instance.uuid),
            "OS-DCF:diskConfig": _disk_config(instance),
            "security_groups": [
                {"name": name} for name in security_groups or ["default"]
            ],
        }
        if admin_password is not None:
            server["adminPass"] = admin_password
        return {"server": server}


# -- the fields ------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """Part of the server body, from ``min_version`` to ``max_version`` in
    ``views``."""

    build: Callable[[ServerViews, Any], dict]
    min_version: str = "2.1"
    max_version: str | None = None
    views: frozenset = ALL_VIEWS

    def applies(self, req: Request, view: str) -> bool:
        return req.is_supported(self.min_version, self.max_version)


def _status(instance) -> str:
    if _get(instance, "deleted"):
        return "DELETED"
    return common.status_from_state(
        _get(instance, "vm_state"), _get(instance, "task_state")
    )


def _disk_config(instance) -> str:
    return "AUTO" if _get(instance, "auto_disk_config") else "MANUAL"


def _image(views: ServerViews, instance, with_properties: bool) -> Any:
    image_ref = _get(instance, "image_ref")
    if not image_ref:
        return ""
    image_id = str(image_ref).rstrip("/").rsplit("/", 1)[-1]
    image = {"id": image_id, "links": links.image_bookmark_link(views.req, image_id)}
    if with_properties:
        image["properties"] = {
            key[len("image_") :]: value
            for key, value in (_get(instance, "system_metadata") or {}).items()
            if key.startswith("image_")
        }
    return image


def _basic(views: ServerViews, instance) -> dict:
    access_v4 = _get(instance, "access_ip_v4")
    access_v6 = _get(instance, "access_ip_v6")
    body = {
        "id": instance.uuid,
        "name": _get(instance, "display_name"),
        "status": _status(instance),
        "tenant_id": _get(instance, "project_id") or "",
        "user_id": _get(instance, "user_id") or "",
        "metadata": _get(instance, "metadata") or {},
        "hostId": utils.generate_hostid(_get(instance, "host"), instance.project_id),
        "image": _image(views, instance, views.req.is_supported("2.98")),
        "created": isotime(_get(instance, "created_at")),
        # A server never updated (a build request's) was updated when made.
        "updated": isotime(
            _get(instance, "updated_at") or _get(instance, "created_at")
        ),
        "addresses": _addresses(instance),
        "accessIPv4": "" if access_v4 is None else str(access_v4),
        "accessIPv6": "" if access_v6 is None else str(access_v6),
        "links": links.resource_links(views.req, COLLECTION, instance.uuid),
        "OS-DCF:diskConfig": _disk_config(instance),
    }
    if body["status"] in PROGRESS_STATUSES:
        body["progress"] = _get(instance, "progress") or 0
    if body["status"] in FAULT_STATUSES:
        fault = _fault(views, instance)
        if fault:
            body["fault"] = fault
    return body


def _fault(views: ServerViews, instance) -> dict | None:
    fault = _get(instance, "fault")
    if not fault:
        return None
    body = {
        "code": fault.code,
        "created": isotime(fault.created_at),
        "message": fault.message,
    }
    # A 500's details may be a traceback: only admins see those.
    if fault.details and (views.context.is_admin or fault.code != 500):
        body["details"] = fault.details
    return body


def _flavor_link(views: ServerViews, instance) -> dict:
    flavor = _get(instance, "flavor")
    if flavor is None:
        return {"flavor": {}}
    return {
        "flavor": {
            "id": str(flavor.flavorid),
            "links": links.bookmark_link(views.req, "flavors", flavor.flavorid),
        }
    }


def _flavor_embedded(views: ServerViews, instance) -> dict:
    flavor = _get(instance, "flavor")
    if flavor is None:
        return {"flavor": {}}
    body = {
        "vcpus": flavor.vcpus,
        "ram": flavor.memory_mb,
        "disk": flavor.root_gb,
        "ephemeral": flavor.ephemeral_gb,
        "swap": flavor.swap,
        "original_name": flavor.name,
    }
    if views.allowed(server_policies.SERVERS % "show:flavor-extra-specs"):
        body["extra_specs"] = dict(flavor.extra_specs or {})
    return {"flavor": body}


def _availability_zone(views: ServerViews, instance) -> str:
    host = _get(instance, "host")
    if host:
        return views.host_zones().get(host, views.servers.default_availability_zone())
    return _get(instance, "availability_zone") or ""


def _extended(views: ServerViews, instance) -> dict:
    """Attributes once offered by extensions, shown to every reader."""
    return {
        "key_name": _get(instance, "key_name"),
        "config_drive": _get(instance, "config_drive") or "",
        "OS-EXT-AZ:availability_zone": _availability_zone(views, instance),
        "OS-EXT-STS:power_state": _get(instance, "power_state"),
        "OS-EXT-STS:task_state": _get(instance, "task_state"),
        "OS-EXT-STS:vm_state": _get(instance, "vm_state"),
        "OS-SRV-USG:launched_at": _usage_time(_get(instance, "launched_at")),
        "OS-SRV-USG:terminated_at": _usage_time(_get(instance, "terminated_at")),
        "os-extended-volumes:volumes_attached": views.volumes_attached(instance),
    }


def _admin_attributes(views: ServerViews, instance) -> dict:
    if not views.allowed(esa_policies.BASE_POLICY_NAME, instance):
        return {}
    return {
        "OS-EXT-SRV-ATTR:host": _get(instance, "host"),
        "OS-EXT-SRV-ATTR:hypervisor_hostname": _get(instance, "node"),
        "OS-EXT-SRV-ATTR:instance_name": instance.name,
    }


def _admin_attributes_v23(views: ServerViews, instance) -> dict:
    if not views.allowed(esa_policies.BASE_POLICY_NAME, instance):
        return {}
    return {
        "OS-EXT-SRV-ATTR:reservation_id": _get(instance, "reservation_id"),
        "OS-EXT-SRV-ATTR:launch_index": _get(instance, "launch_index"),
        "OS-EXT-SRV-ATTR:hostname": _get(instance, "hostname"),
        "OS-EXT-SRV-ATTR:kernel_id": _get(instance, "kernel_id"),
        "OS-EXT-SRV-ATTR:ramdisk_id": _get(instance, "ramdisk_id"),
        "OS-EXT-SRV-ATTR:root_device_name": _get(instance, "root_device_name"),
        "OS-EXT-SRV-ATTR:user_data": _get(instance, "user_data"),
    }


def _host_status(views: ServerViews, instance) -> dict:
    if not views.allowed(server_policies.SERVERS % "show:host_status", instance):
        return {}
    if not _get(instance, "host"):
        return {"host_status": ""}
    service = views.host_service(instance)
    if service is None:
        status = ""
    elif service.forced_down:
        status = "DOWN"
    elif service.disabled:
        status = "MAINTENANCE"
    else:
        status = "UP" if views.servers.service_is_up(service) else "UNKNOWN"
    return {"host_status": status}


def _security_groups(views: ServerViews, instance) -> dict:
    """The groups of the server's ports; no key for a server without."""
    groups = views.security_groups(instance)
    return {"security_groups": groups} if groups else {}


def _locked_reason(views: ServerViews, instance) -> dict:
    locked = bool(_get(instance, "locked"))
    sysmeta = _get(instance, "system_metadata") or {}
    return {"locked_reason": sysmeta.get("locked_reason") if locked else None}


def _request_spec_field(name: str, attribute: str, empty: Any):
    def build(views: ServerViews, instance) -> dict:
        spec = views.request_spec(instance)
        value = getattr(spec, attribute, None) if spec is not None else None
        return {name: value if value is not None else empty}

    return build


FIELDS: tuple[Field, ...] = (
    Field(_basic),
    Field(_flavor_link, max_version="2.46"),
    Field(_flavor_embedded, min_version="2.47"),
    Field(_extended, views=SHOW_AND_DETAIL),
    Field(_security_groups, views=SHOW_AND_DETAIL),
    Field(_admin_attributes, views=SHOW_AND_DETAIL),
    Field(_admin_attributes_v23, min_version="2.3", views=SHOW_AND_DETAIL),
    Field(lambda v, i: {"locked": bool(_get(i, "locked"))}, min_version="2.9"),
    Field(_host_status, min_version="2.16", views=SHOW_AND_DETAIL),
    Field(
        lambda v, i: {"description": _get(i, "display_description")},
        min_version="2.19",
    ),
    Field(
        lambda v, i: {"tags": [tag.tag for tag in (_get(i, "tags") or [])]},
        min_version="2.26",
    ),
    Field(lambda v, i: {"trusted_image_certificates": None}, min_version="2.63"),
    # Server groups arrive with os-server-groups; until then none.
    Field(
        lambda v, i: {"server_groups": []},
        min_version="2.71",
        views=frozenset({SHOW, UPDATE}),
    ),
    Field(_locked_reason, min_version="2.73"),
    Field(
        lambda v, i: {"OS-EXT-SRV-ATTR:hostname": _get(i, "hostname")},
        min_version="2.90",
    ),
    Field(
        _request_spec_field("pinned_availability_zone", "availability_zone", None),
        min_version="2.96",
    ),
    Field(
        _request_spec_field("scheduler_hints", "scheduler_hints", {}),
        min_version="2.100",
    ),
)


def expected_attrs(req: Request) -> list[str]:
    """The optional instance attributes the detailed views read."""
    attrs = ["metadata", "system_metadata", "flavor", "fault", "info_cache"]
    if req.is_supported("2.26"):
        attrs.append("tags")
    return attrs
