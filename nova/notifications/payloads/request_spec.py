"""RequestSpecPayload: what a scheduling request asks for
(scheduler.select_destinations.*, compute_task.*.error)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base
from nova.notifications.payloads.flavor import FlavorPayload
from nova.notifications.payloads.image import ImageMetaPayload
from nova.notifications.payloads.server_group import ServerGroupPayload


@base.PayloadRegistry.register
class CellMappingPayload(base.NotificationPayloadBase):
    # 2.0 dropped the transport URL and database connection (secrets).
    VERSION = "2.0"
    SCHEMA = {name: ("cell", name) for name in ("uuid", "name", "disabled")}
    fields = {
        "uuid": fields.UUIDField(),
        "name": fields.StringField(nullable=True),
        "disabled": fields.BooleanField(default=False),
    }


@base.PayloadRegistry.register
class DestinationPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    SCHEMA = {name: ("destination", name) for name in ("host", "node", "aggregates")}
    fields = {
        "host": fields.StringField(),
        "node": fields.StringField(nullable=True),
        "cell": fields.ObjectField("CellMappingPayload", nullable=True),
        "aggregates": fields.ListOfStringsField(nullable=True, default=None),
    }

    @classmethod
    def from_destination(cls, destination) -> DestinationPayload:
        payload = cls.from_sources(destination=destination)
        cell = destination.cell if "cell" in destination else None
        payload.cell = CellMappingPayload.from_sources(cell=cell) if cell else None
        return payload


@base.PayloadRegistry.register
class SchedulerRetriesPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    fields = {
        "num_attempts": fields.IntegerField(),
        "hosts": fields.ListOfStringsField(),
    }

    @classmethod
    def from_retry(cls, retry) -> SchedulerRetriesPayload:
        hosts = retry.hosts if "hosts" in retry and retry.hosts else []
        return cls(
            num_attempts=retry.num_attempts,
            hosts=[node.hypervisor_hostname for node in hosts],
        )


@base.PayloadRegistry.register
class RequestSpecPayload(base.NotificationPayloadBase):
    VERSION = "1.1"
    SCHEMA = {
        name: ("request_spec", name)
        for name in (
            "instance_uuid",
            "project_id",
            "user_id",
            "availability_zone",
            "num_instances",
            "ignore_hosts",
            "scheduler_hints",
        )
    }
    fields = {
        "instance_uuid": fields.UUIDField(),
        "project_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "availability_zone": fields.StringField(nullable=True),
        "flavor": fields.ObjectField("FlavorPayload", nullable=True),
        "force_hosts": fields.StringField(nullable=True),
        "force_nodes": fields.StringField(nullable=True),
        "ignore_hosts": fields.ListOfStringsField(nullable=True),
        "image_meta": fields.ObjectField("ImageMetaPayload", nullable=True),
        "instance_group": fields.ObjectField("ServerGroupPayload", nullable=True),
        "image": fields.ObjectField("ImageMetaPayload", nullable=True),
        # No NUMA topology or PCI requests are modelled: always null.
        "numa_topology": fields.ObjectField(
            "InstanceNUMATopologyPayload", nullable=True
        ),
        "pci_requests": fields.ObjectField("InstancePCIRequestsPayload", nullable=True),
        "num_instances": fields.IntegerField(default=1),
        "requested_destination": fields.ObjectField(
            "DestinationPayload", nullable=True
        ),
        "retry": fields.ObjectField("SchedulerRetriesPayload", nullable=True),
        "scheduler_hints": fields.DictOfListOfStringsField(nullable=True),
        "security_groups": fields.ListOfStringsField(),
    }

    @classmethod
    def from_request_spec(cls, spec) -> RequestSpecPayload:
        payload = cls.from_sources(request_spec=spec)

        def get(name):
            return getattr(spec, name) if name in spec else None

        flavor = get("flavor")
        payload.flavor = FlavorPayload.from_sources(flavor=flavor) if flavor else None
        if payload.flavor is not None:
            payload.flavor.projects = None  # the spec's copy: no projects carried
        image = get("image")
        payload.image = ImageMetaPayload.from_image(image) if image else None
        # Upstream declares image_meta too but fills only image.
        payload.numa_topology = None
        payload.pci_requests = None
        destination = get("requested_destination")
        payload.requested_destination = (
            DestinationPayload.from_destination(destination) if destination else None
        )
        retry = get("retry")
        payload.retry = SchedulerRetriesPayload.from_retry(retry) if retry else None
        group = get("instance_group")
        payload.instance_group = ServerGroupPayload.from_group(group) if group else None
        # The first forced host / node, as upstream sends it.
        payload.force_hosts = (get("force_hosts") or [None])[0]
        payload.force_nodes = (get("force_nodes") or [None])[0]
        payload.security_groups = []
        return payload
