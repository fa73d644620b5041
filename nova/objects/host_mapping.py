"""Host mappings: which cell each compute host belongs to, and discovery."""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from oslo_versionedobjects import fields
from sqlalchemy import orm

from nova import context as nova_context
from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base
from nova.objects.cell_mapping import CellMapping, CellMappingHolder, CellMappingList
from nova.objects.compute_node import ComputeNodeList
from nova.objects.service import ServiceList


def _select_host_mappings() -> sa.Select:
    return sa.select(models.HostMapping).options(
        orm.joinedload(models.HostMapping.cell_mapping)
    )


@base.NovaObjectRegistry.register
class HostMapping(CellMappingHolder, base.NovaTimestampObject, base.NovaObject):
    """A compute host (``services.host``) and the cell it is in."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "host": fields.StringField(),
        "cell_mapping": fields.ObjectField("CellMapping"),
    }

    @classmethod
    def get_by_host(cls, context, host: str) -> HostMapping:
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                _select_host_mappings().where(models.HostMapping.host == host)
            ).first()
            if row is None:
                raise exception.HostMappingNotFound(name=host)
            return cls._from_db_object(context, cls(), row)

    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = models.HostMapping(host=self.host, cell_id=self.cell_mapping.id)
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            # The only unique key is the host name; anything else is a real
            # integrity problem and must not be reported as a duplicate.
            try:
                HostMapping.get_by_host(self._context, self.host)
            except exception.HostMappingNotFound:
                raise exc from None
            raise exception.HostMappingExists(name=self.host) from exc
        self._from_db_object(self._context, self, row, skip={"cell_mapping"})

    def save(self) -> None:
        changes = self.obj_get_changes()
        values = {}
        if "host" in changes:
            values["host"] = self.host
        if "cell_mapping" in changes:
            values["cell_id"] = self.cell_mapping.id
        if not values:
            return
        with engines.transaction(self._context.api_db_connection) as session:
            row = session.get(models.HostMapping, self.id)
            if row is None:
                raise exception.HostMappingNotFound(name=self.host)
            for name, value in values.items():
                setattr(row, name, value)
            session.flush()
        self._from_db_object(self._context, self, row, skip={"cell_mapping"})

    def destroy(self) -> None:
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.delete(models.HostMapping).where(models.HostMapping.id == self.id)
            )
            if result.rowcount == 0:
                raise exception.HostMappingNotFound(name=self.host)


@base.NovaObjectRegistry.register
class HostMappingList(base.ObjectListBase, base.NovaObject):
    VERSION = "1.1"

    fields = {"objects": fields.ListOfObjectsField("HostMapping")}

    @classmethod
    def get_all(cls, context) -> HostMappingList:
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(
                _select_host_mappings().order_by(models.HostMapping.id)
            ).all()
            return cls._from_db_rows(context, HostMapping, rows)

    @classmethod
    def get_by_cell_id(cls, context, cell_id: int) -> HostMappingList:
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(
                _select_host_mappings()
                .where(models.HostMapping.cell_id == cell_id)
                .order_by(models.HostMapping.id)
            ).all()
            return cls._from_db_rows(context, HostMapping, rows)


StatusFn = Callable[[str], None]


def discover_hosts(
    context,
    cell_uuid: str | None = None,
    status_fn: StatusFn | None = None,
    by_service: bool = False,
) -> list[HostMapping]:
    """Map the compute hosts of every cell (or of one) that are not mapped yet.

    Hosts come from the cells' ``compute_nodes`` rows not yet marked
    ``mapped``, or, ``by_service``, from their ``nova-compute`` services
    (for drivers whose hosts may have no compute node at times). Returns the
    host mappings this call created.

    Safe to run repeatedly and concurrently (the scheduler's periodic task
    and an operator may overlap): a host mapped meanwhile by someone else is
    simply left as it is.

    :raises CellMappingNotFound: if ``cell_uuid`` names no cell.
    """
    status = status_fn or (lambda _message: None)
    if cell_uuid:
        cells = [CellMapping.get_by_uuid(context, cell_uuid)]
    else:
        cells = list(CellMappingList.get_all(context))
        status(f"Found {len(cells)} cell mappings.")

    created: list[HostMapping] = []
    for cell in cells:
        if cell.is_cell0():
            status("Skipping cell0 since it does not contain hosts.")
            continue
        if cell.name:
            status(f"Getting computes from cell '{cell.name}': {cell.uuid}")
        else:
            status(f"Getting computes from cell: {cell.uuid}")
        with nova_context.target_cell(context, cell) as cell_context:
            if by_service:
                mapped = _map_service_hosts(cell_context, cell, status)
            else:
                mapped = _map_compute_node_hosts(cell_context, cell, status)
        status(f"Found {len(mapped)} unmapped computes in cell: {cell.uuid}")
        created += mapped
    return created


def _map_host(context, cell: CellMapping, host: str, status: StatusFn):
    """Create ``host``'s mapping to ``cell`` unless it has one; None if it had."""
    try:
        existing = HostMapping.get_by_host(context, host)
    except exception.HostMappingNotFound:
        mapping = HostMapping(context, host=host, cell_mapping=cell)
        try:
            mapping.create()
        except exception.HostMappingExists:
            status(f"Host {host} was mapped meanwhile by another run.")
            return None
        status(f"Creating host mapping for compute host '{host}'")
        return mapping
    if existing.cell_mapping.uuid != cell.uuid:
        status(
            f"Host {host} is already mapped to another cell: "
            f"{existing.cell_mapping.uuid}"
        )
    return None


def _map_compute_node_hosts(cell_context, cell, status) -> list[HostMapping]:
    created = []
    checked_hosts = set()
    for node in ComputeNodeList.get_all_by_not_mapped(cell_context, 1):
        if not node.host:
            continue
        status(f"Checking host mapping for compute host '{node.host}': {node.uuid}")
        if node.host not in checked_hosts:
            checked_hosts.add(node.host)
            mapping = _map_host(cell_context, cell, node.host, status)
            if mapping is not None:
                created.append(mapping)
        # Marked only once the host's mapping exists: a run that dies in
        # between leaves the node to be found again by the next run.
        node.mapped = 1
        node.save()
    return created


def _map_service_hosts(cell_context, cell, status) -> list[HostMapping]:
    created = []
    services = ServiceList.get_by_binary(
        cell_context, "nova-compute", include_disabled=True
    )
    for service in services:
        status(f"Checking host mapping for nova-compute service host '{service.host}'")
        mapping = _map_host(cell_context, cell, service.host, status)
        if mapping is not None:
            created.append(mapping)
    return created
