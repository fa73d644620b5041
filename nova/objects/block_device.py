"""Block device mappings: the disks of an instance (image, volume, local)."""

from __future__ import annotations

import sqlalchemy as sa
from oslo_utils import uuidutils
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

_COLUMNS = (
    "uuid",
    "instance_uuid",
    "source_type",
    "destination_type",
    "guest_format",
    "device_type",
    "disk_bus",
    "boot_index",
    "device_name",
    "delete_on_termination",
    "snapshot_id",
    "volume_id",
    "volume_size",
    "volume_type",
    "image_id",
    "no_device",
    "connection_info",
    "tag",
    "attachment_id",
    "encrypted",
    "encryption_secret_uuid",
    "encryption_format",
    "encryption_options",
)


@base.NovaObjectRegistry.register
class BlockDeviceMapping(base.NovaPersistentObject, base.NovaObject):
    """One disk of an instance, as ``block_device_mapping_v2`` describes it."""

    # Version 1.0: Initial version
    # Version 1.1: save, get_by_volume_and_instance
    VERSION = "1.1"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(),
        "instance_uuid": fields.UUIDField(),
        "source_type": fields.StringField(nullable=True),
        "destination_type": fields.StringField(nullable=True),
        "guest_format": fields.StringField(nullable=True),
        "device_type": fields.StringField(nullable=True),
        "disk_bus": fields.StringField(nullable=True),
        "boot_index": fields.IntegerField(nullable=True),
        "device_name": fields.StringField(nullable=True),
        "delete_on_termination": fields.BooleanField(default=False),
        "snapshot_id": fields.StringField(nullable=True),
        "volume_id": fields.StringField(nullable=True),
        "volume_size": fields.IntegerField(nullable=True),
        "volume_type": fields.StringField(nullable=True),
        "image_id": fields.StringField(nullable=True),
        "no_device": fields.BooleanField(default=False),
        "connection_info": fields.SensitiveStringField(nullable=True),
        "tag": fields.StringField(nullable=True),
        "attachment_id": fields.UUIDField(nullable=True),
        "encrypted": fields.BooleanField(default=False),
        "encryption_secret_uuid": fields.UUIDField(nullable=True),
        "encryption_format": fields.StringField(nullable=True),
        "encryption_options": fields.StringField(nullable=True),
    }

    @property
    def is_volume(self) -> bool:
        return self.destination_type == "volume"

    @property
    def is_image(self) -> bool:
        return self.source_type == "image"

    @base.remotable
    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if "uuid" not in self:
            self.uuid = uuidutils.generate_uuid()
        with engines.transaction(self._context.db_connection) as session:
            row = models.BlockDeviceMapping(**base.db_values(self, _COLUMNS))
            session.add(row)
            session.flush()
        self._from_db_object(self._context, self, row)

    @base.remotable
    def save(self) -> None:
        """Write the changed fields."""
        changes = {
            key: value
            for key, value in base.db_values(self, _COLUMNS).items()
            if key in self.obj_what_changed()
        }
        if not changes:
            return
        model = models.BlockDeviceMapping
        with engines.transaction(self._context.db_connection) as session:
            session.execute(
                sa.update(model)
                .where(model.id == self.id, model.deleted == 0)
                .values(**changes, updated_at=base.utcnow())
            )
        self.obj_reset_changes()

    @classmethod
    @base.remotable
    def get_by_volume_and_instance(
        cls, context, volume_id: str, instance_uuid: str
    ) -> BlockDeviceMapping:
        """:raises VolumeBDMNotFound: the instance has no such volume."""
        model = models.BlockDeviceMapping
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(
                sa.select(model).where(
                    model.volume_id == volume_id,
                    model.instance_uuid == instance_uuid,
                    model.deleted == 0,
                )
            ).first()
        if row is None:
            raise exception.VolumeBDMNotFound(volume_id=volume_id)
        return cls._from_db_object(context, cls(), row)

    @base.remotable
    def destroy(self) -> None:
        model = models.BlockDeviceMapping
        with engines.transaction(self._context.db_connection) as session:
            session.execute(
                sa.update(model)
                .where(model.id == self.id, model.deleted == 0)
                .values(deleted=model.id, deleted_at=base.utcnow())
            )


@base.NovaObjectRegistry.register
class BlockDeviceMappingList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("BlockDeviceMapping")}

    @property
    def root_bdm(self) -> BlockDeviceMapping | None:
        return next((bdm for bdm in self if bdm.boot_index == 0), None)

    @classmethod
    @base.remotable
    def get_by_instance_uuid(
        cls, context, instance_uuid: str
    ) -> BlockDeviceMappingList:
        model = models.BlockDeviceMapping
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(
                sa.select(model)
                .where(model.instance_uuid == instance_uuid, model.deleted == 0)
                .order_by(model.id)
            ).all()
        return cls._from_db_rows(context, BlockDeviceMapping, rows)
