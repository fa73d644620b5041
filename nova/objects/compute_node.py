"""Compute nodes: the hypervisors a cell's nova-compute services report.

A compute node's uuid is also the uuid of its resource provider in
Placement, which is how the scheduler ties allocation candidates to hosts.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable

import sqlalchemy as sa
from oslo_utils import uuidutils
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base

# Fields stored as JSON text, and the columns holding them.
_JSON_COLUMNS = {"stats": "stats", "supported_hv_specs": "supported_instances"}


@base.NovaObjectRegistry.register
class ComputeNode(base.NovaPersistentObject, base.NovaObject):
    """One hypervisor (``hypervisor_hostname``) run by a compute ``host``."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "uuid": fields.UUIDField(read_only=True),
        "service_id": fields.IntegerField(nullable=True),
        "host": fields.StringField(nullable=True),
        "vcpus": fields.IntegerField(),
        "memory_mb": fields.IntegerField(),
        "local_gb": fields.IntegerField(),
        "vcpus_used": fields.IntegerField(),
        "memory_mb_used": fields.IntegerField(),
        "local_gb_used": fields.IntegerField(),
        "hypervisor_type": fields.StringField(),
        "hypervisor_version": fields.IntegerField(),
        "hypervisor_hostname": fields.StringField(nullable=True),
        "free_ram_mb": fields.IntegerField(nullable=True),
        "free_disk_gb": fields.IntegerField(nullable=True),
        "current_workload": fields.IntegerField(nullable=True),
        "running_vms": fields.IntegerField(nullable=True),
        # JSON documents of the virt driver.
        "cpu_info": fields.StringField(nullable=True),
        "disk_available_least": fields.IntegerField(nullable=True),
        "metrics": fields.StringField(nullable=True),
        "stats": fields.DictOfNullableStringsField(nullable=True),
        "host_ip": fields.IPAddressField(nullable=True),
        "numa_topology": fields.StringField(nullable=True),
        # [architecture, hypervisor type, vm mode] triples the host can run.
        "supported_hv_specs": fields.ListOfListsOfStringsField(),
        "cpu_allocation_ratio": fields.FloatField(nullable=True),
        "ram_allocation_ratio": fields.FloatField(nullable=True),
        "disk_allocation_ratio": fields.FloatField(nullable=True),
        # 1 once the host has a host mapping in the API database.
        "mapped": fields.IntegerField(default=0),
    }

    _PLAIN_COLUMNS = (
        "uuid",
        "service_id",
        "host",
        "vcpus",
        "memory_mb",
        "local_gb",
        "vcpus_used",
        "memory_mb_used",
        "local_gb_used",
        "hypervisor_type",
        "hypervisor_version",
        "hypervisor_hostname",
        "free_ram_mb",
        "free_disk_gb",
        "current_workload",
        "running_vms",
        "cpu_info",
        "disk_available_least",
        "metrics",
        "host_ip",
        "numa_topology",
        "cpu_allocation_ratio",
        "ram_allocation_ratio",
        "disk_allocation_ratio",
        "mapped",
    )

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        super()._from_db_object(context, obj, db_row, skip={*_JSON_COLUMNS, *skip})
        for name, column in _JSON_COLUMNS.items():
            text = getattr(db_row, column)
            empty = [] if name == "supported_hv_specs" else None
            setattr(obj, name, json.loads(text) if text else empty)
        obj.obj_reset_changes()
        return obj

    def _column_values(self, names) -> dict:
        values = {}
        for name in names:
            if name not in self:
                continue
            if name in _JSON_COLUMNS:
                values[_JSON_COLUMNS[name]] = json.dumps(getattr(self, name))
            else:
                values[name] = base.db_value(getattr(self, name))
        return values

    @classmethod
    def _get(cls, context, *criteria) -> ComputeNode | None:
        return cls._get_first(context, models.ComputeNode, *criteria)

    @classmethod
    @base.remotable
    def get_by_id(cls, context, compute_id: int) -> ComputeNode:
        node = cls._get(context, models.ComputeNode.id == compute_id)
        if node is None:
            raise exception.ComputeHostNotFound(host=compute_id)
        return node

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, compute_uuid: str) -> ComputeNode:
        node = cls._get(context, models.ComputeNode.uuid == compute_uuid)
        if node is None:
            raise exception.ComputeHostNotFound(host=compute_uuid)
        return node

    @classmethod
    @base.remotable
    def get_by_host_and_nodename(cls, context, host: str, nodename: str) -> ComputeNode:
        node = cls._get(
            context,
            models.ComputeNode.host == host,
            models.ComputeNode.hypervisor_hostname == nodename,
        )
        if node is None:
            raise exception.ComputeHostNotFound(host=host)
        return node

    @base.remotable
    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if "uuid" not in self:
            self.uuid = uuidutils.generate_uuid()
        names = self._PLAIN_COLUMNS + tuple(_JSON_COLUMNS)
        with engines.transaction(self._context.db_connection) as session:
            row = models.ComputeNode(**self._column_values(names))
            session.add(row)
            session.flush()
        self._from_db_object(self._context, self, row)

    @base.remotable
    def save(self) -> None:
        changes = self.obj_get_changes()
        changes.pop("id", None)
        if not changes:
            return
        values = self._column_values(changes)
        values["updated_at"] = base.utcnow()
        with engines.transaction(self._context.db_connection) as session:
            row = session.get(models.ComputeNode, self.id)
            if row is None or row.deleted:
                raise exception.ComputeHostNotFound(host=self.host)
            for name, value in values.items():
                setattr(row, name, value)
            session.flush()
        self._from_db_object(self._context, self, row)

    @base.remotable
    def destroy(self) -> None:
        with engines.transaction(self._context.db_connection) as session:
            result = session.execute(
                sa.update(models.ComputeNode)
                .where(
                    models.ComputeNode.id == self.id, models.ComputeNode.deleted == 0
                )
                .values(deleted=models.ComputeNode.id, deleted_at=base.utcnow())
            )
            if result.rowcount != 1:
                raise exception.ComputeHostNotFound(host=self.host)


@base.NovaObjectRegistry.register
class ComputeNodeList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("ComputeNode")}

    @classmethod
    def _get(cls, context, *criteria) -> ComputeNodeList:
        stmt = base.NovaPersistentObject._select(context, models.ComputeNode)
        stmt = stmt.where(*criteria).order_by(models.ComputeNode.id)
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt).all()
        return cls._from_db_rows(context, ComputeNode, rows)

    @classmethod
    @base.remotable
    def get_all(cls, context) -> ComputeNodeList:
        return cls._get(context)

    @classmethod
    @base.remotable
    def get_all_by_uuids(cls, context, compute_uuids: list[str]) -> ComputeNodeList:
        return cls._get(context, models.ComputeNode.uuid.in_(list(compute_uuids)))

    @classmethod
    def get_host_and_updated_at_by_uuids(
        cls, context, compute_uuids: Iterable[str]
    ) -> dict[str, tuple[str | None, datetime.datetime | None]]:
        """uuid -> (host, updated_at) of the live nodes among
        ``compute_uuids``, read as two plain columns: enough for a caller
        holding loaded nodes to tell which are stale, at a fraction of the
        cost of loading them all again.

        ``updated_at`` is timezone-aware, as a loaded node's is, so the two
        compare equal when the node has not changed.
        """
        node = models.ComputeNode
        stmt = sa.select(node.uuid, node.host, node.updated_at).where(
            node.uuid.in_(list(compute_uuids)), node.deleted == 0
        )
        with engines.transaction(context.db_connection) as session:
            rows = session.execute(stmt).all()
        return {uuid: (host, _aware(updated)) for uuid, host, updated in rows}

    @classmethod
    def get_all_by_not_mapped(cls, context, mapped_less_than: int) -> ComputeNodeList:
        """Nodes whose ``mapped`` is below ``mapped_less_than`` (or unset)."""
        mapped = models.ComputeNode.mapped
        return cls._get(context, sa.or_(mapped < mapped_less_than, mapped.is_(None)))

    @classmethod
    @base.remotable
    def get_all_by_host(cls, context, host: str) -> ComputeNodeList:
        """The nodes of ``host``; raises ComputeHostNotFound if it has none."""
        nodes = cls._get(context, models.ComputeNode.host == host)
        if not nodes:
            raise exception.ComputeHostNotFound(host=host)
        return nodes


def _aware(value: datetime.datetime | None) -> datetime.datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=datetime.UTC)
    return value
