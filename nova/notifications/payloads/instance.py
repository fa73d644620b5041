"""Payloads about an instance: its state, flavor, addresses and devices,
plus what each kind of instance notification adds.

Versions are upstream's current ones, so a consumer written against
upstream's samples reads ours: InstancePayload 1.9 has ``locked_reason``
(1.8) and, with ``[notifications] include_share_mapping``, ``shares`` (1.9);
each subclass is at the version upstream gave it for the same fields.
"""

from __future__ import annotations

from oslo_versionedobjects import fields

import nova.conf
from nova import crypto
from nova.notifications import base

# Registered for the fault field of the action payloads.
from nova.notifications.payloads.exception import ExceptionPayload  # noqa: F401
from nova.notifications.payloads.flavor import FlavorPayload
from nova.notifications.payloads.keypair import KeypairPayload
from nova.states import power_state

CONF = nova.conf.CONF


@base.PayloadRegistry.register
class IpPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    fields = {
        "label": fields.StringField(),
        "mac": fields.StringField(),
        "meta": fields.DictOfStringsField(),
        "port_uuid": fields.UUIDField(nullable=True),
        "version": fields.IntegerField(),
        "address": fields.StringField(),
        "device_name": fields.StringField(nullable=True),
    }

    @classmethod
    def from_network_info(cls, network_info) -> list[IpPayload]:
        """One payload per fixed IP of each port of ``network_info``."""
        addresses = []
        for vif in network_info or []:
            network = vif.get("network") or {}
            for subnet in network.get("subnets") or []:
                for ip in subnet.get("ips") or []:
                    if ip.get("type", "fixed") != "fixed":
                        continue
                    addresses.append(
                        cls(
                            label=network.get("label") or "",
                            mac=vif.get("address") or "",
                            meta=_strings(vif.get("meta")),
                            port_uuid=vif.get("id"),
                            version=ip.get("version") or subnet.get("version") or 4,
                            address=ip["address"],
                            device_name=vif.get("devname"),
                        )
                    )
        return addresses


def _strings(mapping) -> dict[str, str]:
    return {key: str(value) for key, value in (mapping or {}).items()}


@base.PayloadRegistry.register
class BlockDevicePayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    SCHEMA = {
        name: ("bdm", name)
        for name in (
            "device_name",
            "boot_index",
            "delete_on_termination",
            "volume_id",
            "tag",
        )
    }
    fields = {
        "device_name": fields.StringField(nullable=True),
        "boot_index": fields.IntegerField(nullable=True),
        "delete_on_termination": fields.BooleanField(default=False),
        "volume_id": fields.UUIDField(),
        "tag": fields.StringField(nullable=True),
    }

    @classmethod
    def from_instance(cls, instance) -> list[BlockDevicePayload] | None:
        """The instance's volumes, when ``bdms_in_notifications`` asks."""
        if not CONF.notifications.bdms_in_notifications:
            return None
        from nova import objects

        bdms = objects.BlockDeviceMappingList.get_by_instance_uuid(
            instance._context, instance.uuid
        )
        payloads = []
        for bdm in bdms:
            if getattr(bdm, "volume_id", None):
                payloads.append(cls.from_sources(bdm=bdm))
        return payloads


@base.PayloadRegistry.register
class InstanceStateUpdatePayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    fields = {
        "old_state": fields.StringField(nullable=True),
        "state": fields.StringField(nullable=True),
        "old_task_state": fields.StringField(nullable=True),
        "new_task_state": fields.StringField(nullable=True),
    }


@base.PayloadRegistry.register
class AuditPeriodPayload(base.NotificationPayloadBase):
    VERSION = "1.0"
    fields = {
        "audit_period_beginning": fields.DateTimeField(),
        "audit_period_ending": fields.DateTimeField(),
    }


@base.PayloadRegistry.register
class InstancePayload(base.NotificationPayloadBase):
    VERSION = "1.9"
    SCHEMA = {
        "uuid": ("instance", "uuid"),
        "user_id": ("instance", "user_id"),
        "tenant_id": ("instance", "project_id"),
        "reservation_id": ("instance", "reservation_id"),
        "display_name": ("instance", "display_name"),
        "display_description": ("instance", "display_description"),
        "host_name": ("instance", "hostname"),
        "host": ("instance", "host"),
        "node": ("instance", "node"),
        "os_type": ("instance", "os_type"),
        "architecture": ("instance", "architecture"),
        "availability_zone": ("instance", "availability_zone"),
        "image_uuid": ("instance", "image_ref"),
        "key_name": ("instance", "key_name"),
        "kernel_id": ("instance", "kernel_id"),
        "ramdisk_id": ("instance", "ramdisk_id"),
        "created_at": ("instance", "created_at"),
        "launched_at": ("instance", "launched_at"),
        "terminated_at": ("instance", "terminated_at"),
        "deleted_at": ("instance", "deleted_at"),
        "updated_at": ("instance", "updated_at"),
        "state": ("instance", "vm_state"),
        "task_state": ("instance", "task_state"),
        "progress": ("instance", "progress"),
        "locked": ("instance", "locked"),
    }
    fields = {
        "uuid": fields.UUIDField(),
        "user_id": fields.StringField(nullable=True),
        "tenant_id": fields.StringField(nullable=True),
        "reservation_id": fields.StringField(nullable=True),
        "display_name": fields.StringField(nullable=True),
        "display_description": fields.StringField(nullable=True),
        "host_name": fields.StringField(nullable=True),
        "host": fields.StringField(nullable=True),
        "node": fields.StringField(nullable=True),
        "os_type": fields.StringField(nullable=True),
        "architecture": fields.StringField(nullable=True),
        "availability_zone": fields.StringField(nullable=True),
        "flavor": fields.ObjectField("FlavorPayload"),
        "image_uuid": fields.StringField(nullable=True),
        "key_name": fields.StringField(nullable=True),
        "kernel_id": fields.StringField(nullable=True),
        "ramdisk_id": fields.StringField(nullable=True),
        "created_at": fields.DateTimeField(nullable=True),
        "launched_at": fields.DateTimeField(nullable=True),
        "terminated_at": fields.DateTimeField(nullable=True),
        "deleted_at": fields.DateTimeField(nullable=True),
        "updated_at": fields.DateTimeField(nullable=True),
        "state": fields.StringField(nullable=True),
        "power_state": fields.StringField(nullable=True),
        "task_state": fields.StringField(nullable=True),
        "progress": fields.IntegerField(nullable=True),
        "ip_addresses": fields.ListOfObjectsField("IpPayload"),
        "block_devices": fields.ListOfObjectsField("BlockDevicePayload", nullable=True),
        "metadata": fields.DictOfStringsField(),
        "locked": fields.BooleanField(default=False),
        "auto_disk_config": fields.StringField(),
        "request_id": fields.StringField(nullable=True),
        "action_initiator_user": fields.StringField(nullable=True),
        "action_initiator_project": fields.StringField(nullable=True),
        "locked_reason": fields.StringField(nullable=True),
        "shares": fields.ListOfDictOfNullableStringsField(nullable=True),
    }

    def __init__(self, context, instance, **kwargs) -> None:
        super().__init__(**kwargs)
        self.populate_schema(instance=instance)
        self.power_state = power_state.STATE_MAP.get(instance.power_state or 0)
        # A new instance's progress is 0 (its row's default) until a move
        # reports one.
        self.progress = instance.progress or 0
        self.auto_disk_config = "AUTO" if instance.auto_disk_config else "MANUAL"
        # Loaded on demand (through the conductor on a compute).
        self.metadata = dict(instance.metadata or {})
        self.flavor = FlavorPayload.from_sources(flavor=instance.flavor)
        # An instance's flavor is a copy: its projects are not carried.
        self.flavor.projects = None
        info_cache = instance.info_cache
        self.ip_addresses = IpPayload.from_network_info(
            info_cache.network_info if info_cache is not None else None
        )
        self.block_devices = BlockDevicePayload.from_instance(instance)
        self.locked_reason = (instance.system_metadata or {}).get("locked_reason")
        if CONF.notifications.include_share_mapping:
            self.shares = []  # no share attachments are implemented yet
        # Periodic tasks act for nobody: no request to point at.
        acting = bool(context.project_id and context.user_id)
        self.request_id = context.request_id if acting else None
        self.action_initiator_user = context.user_id
        self.action_initiator_project = context.project_id


@base.PayloadRegistry.register
class InstanceActionPayload(InstancePayload):
    VERSION = "1.9"
    fields = {"fault": fields.ObjectField("ExceptionPayload", nullable=True)}

    def __init__(self, context, instance, fault=None, **kwargs) -> None:
        super().__init__(context, instance, **kwargs)
        self.fault = fault


@base.PayloadRegistry.register
class InstanceCreatePayload(InstanceActionPayload):
    # 1.11 added instance_name, 1.12 locked_reason, 1.13 shares.
    VERSION = "1.13"
    fields = {
        "keypairs": fields.ListOfObjectsField("KeypairPayload"),
        "tags": fields.ListOfStringsField(),
        "trusted_image_certificates": fields.ListOfStringsField(nullable=True),
        "instance_name": fields.StringField(nullable=True),
    }

    def __init__(self, context, instance, fault=None) -> None:
        super().__init__(context, instance, fault)
        self.keypairs = _keypairs(instance)
        self.tags = [tag.tag for tag in instance.tags] if instance.tags else []
        self.trusted_image_certificates = None
        self.instance_name = instance.name


@base.PayloadRegistry.register
class InstanceActionSnapshotPayload(InstanceActionPayload):
    VERSION = "1.10"
    fields = {"snapshot_image_id": fields.UUIDField()}


@base.PayloadRegistry.register
class InstanceActionVolumePayload(InstanceActionPayload):
    # Two behind InstanceActionPayload, as upstream's bumps have kept it.
    VERSION = "1.7"
    fields = {"volume_id": fields.UUIDField()}


@base.PayloadRegistry.register
class InstanceActionRescuePayload(InstanceActionPayload):
    VERSION = "1.4"
    fields = {"rescue_image_ref": fields.UUIDField(nullable=True)}


@base.PayloadRegistry.register
class InstanceActionRebuildPayload(InstanceActionPayload):
    VERSION = "1.10"
    fields = {"trusted_image_certificates": fields.ListOfStringsField(nullable=True)}

    def __init__(self, context, instance, fault=None, **kwargs) -> None:
        super().__init__(context, instance, fault, **kwargs)
        self.trusted_image_certificates = None


@base.PayloadRegistry.register
class InstanceActionResizePrepPayload(InstanceActionPayload):
    VERSION = "1.4"
    fields = {"new_flavor": fields.ObjectField("FlavorPayload", nullable=True)}

    def __init__(self, context, instance, fault=None, new_flavor=None) -> None:
        super().__init__(context, instance, fault)
        if new_flavor is not None:
            new_flavor = FlavorPayload.from_sources(flavor=new_flavor)
            new_flavor.projects = None  # a copy: no projects carried
        self.new_flavor = new_flavor


@base.PayloadRegistry.register
class InstanceUpdatePayload(InstancePayload):
    # 2.0 dropped bandwidth (nova-network's counters), 2.1 added shares.
    VERSION = "2.1"
    fields = {
        "state_update": fields.ObjectField("InstanceStateUpdatePayload"),
        "audit_period": fields.ObjectField("AuditPeriodPayload"),
        "old_display_name": fields.StringField(nullable=True),
        "tags": fields.ListOfStringsField(),
    }


@base.PayloadRegistry.register
class InstanceExistsPayload(InstancePayload):
    # 2.0 dropped bandwidth, 2.1 added shares (as InstanceUpdatePayload).
    VERSION = "2.1"
    fields = {"audit_period": fields.ObjectField("AuditPeriodPayload")}


def _keypairs(instance) -> list[KeypairPayload]:
    """The key pair the instance was booted with, as its record keeps it
    (a compute has no API database to look the key pair up in)."""
    if not instance.key_name or not instance.key_data:
        return []
    try:
        fingerprint = crypto.ssh_fingerprint(instance.key_data)
    except Exception:  # an x509 certificate, or a key that does not parse
        fingerprint = None
    return [
        KeypairPayload(
            user_id=instance.user_id,
            name=instance.key_name,
            public_key=instance.key_data,
            fingerprint=fingerprint,
            type="ssh",
        )
    ]
