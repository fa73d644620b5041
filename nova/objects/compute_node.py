"""Compute nodes: the hypervisors a cell's nova-compute services report.

Only the fields that host discovery and host deletion use exist so far; the
resource-tracking fields arrive with the compute service.
"""

from __future__ import annotations

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base


@base.NovaObjectRegistry.register
class ComputeNode(base.NovaPersistentObject, base.NovaObject):
    """One hypervisor (``hypervisor_hostname``) run by a compute ``host``."""

    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "uuid": fields.UUIDField(read_only=True),
        "service_id": fields.IntegerField(nullable=True),
        "host": fields.StringField(nullable=True),
        "hypervisor_hostname": fields.StringField(nullable=True),
        # 1 once the host has a host mapping in the API database.
        "mapped": fields.IntegerField(default=0),
    }

    def save(self) -> None:
        changes = self.obj_get_changes()
        if not changes:
            return
        with engines.transaction(self._context.db_connection) as session:
            row = session.get(models.ComputeNode, self.id)
            if row is None or row.deleted:
                raise exception.ComputeHostNotFound(host=self.host)
            for name, value in changes.items():
                setattr(row, name, value)
            session.flush()
        self._from_db_object(self._context, self, row)


@base.NovaObjectRegistry.register
class ComputeNodeList(base.ObjectListBase, base.NovaObject):
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
    def get_all(cls, context) -> ComputeNodeList:
        return cls._get(context)

    @classmethod
    def get_all_by_not_mapped(cls, context, mapped_less_than: int) -> ComputeNodeList:
        """Nodes whose ``mapped`` is below ``mapped_less_than`` (or unset)."""
        mapped = models.ComputeNode.mapped
        return cls._get(context, sa.or_(mapped < mapped_less_than, mapped.is_(None)))

    @classmethod
    def get_all_by_host(cls, context, host: str) -> ComputeNodeList:
        """The nodes of ``host``; raises ComputeHostNotFound if it has none."""
        nodes = cls._get(context, models.ComputeNode.host == host)
        if not nodes:
            raise exception.ComputeHostNotFound(host=host)
        return nodes
