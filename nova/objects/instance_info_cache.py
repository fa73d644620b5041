"""The network info of an instance, as last learned from the network service."""

from __future__ import annotations

import json

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.network import model as network_model
from nova.objects import base


class _NetworkInfo(fields.FieldType):
    """A :class:`~nova.network.model.NetworkInfo`, on the wire as its JSON
    list (the primitive a plain JSON field gave, so no version changes)."""

    @staticmethod
    def coerce(obj, attr, value) -> network_model.NetworkInfo:
        return network_model.NetworkInfo.hydrate(value)

    @staticmethod
    def from_primitive(obj, attr, value) -> network_model.NetworkInfo:
        return network_model.NetworkInfo.hydrate(value)

    @staticmethod
    def to_primitive(obj, attr, value) -> list:
        return json.loads(value.json())


class NetworkInfoField(fields.AutoTypedField):
    AUTO_TYPE = _NetworkInfo()


@base.NovaObjectRegistry.register
class InstanceInfoCache(base.NovaPersistentObject, base.NovaObject):
    """``network_info``: the instance's VIFs (ports, addresses) as a
    :class:`~nova.network.model.NetworkInfo`."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "instance_uuid": fields.UUIDField(),
        "network_info": NetworkInfoField(nullable=True),
    }

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        super()._from_db_object(context, obj, db_row, skip={"network_info"})
        obj.network_info = network_model.NetworkInfo.hydrate(db_row.network_info)
        obj.obj_reset_changes()
        return obj

    @classmethod
    @base.remotable
    def get_by_instance_uuid(cls, context, instance_uuid: str) -> InstanceInfoCache:
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(
                sa.select(models.InstanceInfoCache).where(
                    models.InstanceInfoCache.instance_uuid == instance_uuid
                )
            ).first()
            if row is None:
                raise exception.InstanceNotFound(instance_id=instance_uuid)
            return cls._from_db_object(context, cls(), row)

    @base.remotable
    def save(self) -> None:
        if "network_info" not in self.obj_what_changed():
            return
        network_info = self.network_info or network_model.NetworkInfo()
        with engines.transaction(self._context.db_connection) as session:
            session.execute(
                sa.update(models.InstanceInfoCache)
                .where(models.InstanceInfoCache.instance_uuid == self.instance_uuid)
                .values(network_info=network_info.json())
            )
        self.obj_reset_changes()


@base.NovaObjectRegistry.register
class InstanceInfoCacheList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("InstanceInfoCache")}

    @classmethod
    def get_by_network_info_containing(
        cls, context, text: str
    ) -> InstanceInfoCacheList:
        """The caches of live instances whose stored network info document
        contains ``text``.

        A cheap filter in the database (no JSON parsing there): the caller
        still checks where in the network info its value appears.
        """
        cache = models.InstanceInfoCache
        stmt = (
            sa.select(cache)
            .join(models.Instance, models.Instance.uuid == cache.instance_uuid)
            .where(models.Instance.deleted == 0, cache.network_info.contains(text))
        )
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt).all()
        return cls._from_db_rows(context, InstanceInfoCache, rows)
