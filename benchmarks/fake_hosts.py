"""Pose as many compute hosts from one process, for scale benchmarks.

Each fake host is what a real nova-compute with the fake virt driver leaves
behind: its service record, its compute node (written by the resource
tracker from FakeDriver's report) and its resource provider with inventory
in Placement, then a host mapping once discovered. No RPC server runs for
them: the scheduler never calls computes, and heartbeats are refreshed in
one statement (:func:`heartbeat`) instead of one per host.

Registering thousands of hosts one compute at a time takes minutes of
database commits and four Placement requests each. :func:`add_hosts` runs
the real resource tracker once, for a template host, and copies its rows
for the others: one bulk insert of services, one of compute nodes, one of
host mappings, then two Placement requests per host (create the provider,
put its inventory at generation 0), several at a time.
"""

from __future__ import annotations

import concurrent.futures
import datetime
import threading

import sqlalchemy as sa
from oslo_utils import uuidutils

import placement_client.exception as placement_exc
from nova import objects, placement
from nova.compute.resource_tracker import ResourceTracker, inventory_of
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from nova.virt.fake import FakeDriver


def add_host(context, name: str) -> None:
    """One fake compute host, as its nova-compute would register it."""
    service = objects.Service(
        context, host=name, binary="nova-compute", topic="compute"
    )
    service.create()
    driver = FakeDriver()
    driver.init_host(name)
    ResourceTracker(name, driver).update_available_resource(context, service.id)


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def _columns(row) -> dict:
    return {column.key: getattr(row, column.key) for column in row.__table__.columns}


def _copy_rows(context, template_host: str, names: list[str]) -> list:
    """Insert the service and compute node of each of ``names``, copies of
    ``template_host``'s; returns the new compute nodes' rows."""
    service_model, node_model = main_models.Service, main_models.ComputeNode
    now = _now()
    with engines.transaction(context.db_connection) as session:
        service = session.scalars(
            sa.select(service_model).where(
                service_model.host == template_host, service_model.deleted == 0
            )
        ).one()
        node = session.scalars(
            sa.select(node_model).where(
                node_model.host == template_host, node_model.deleted == 0
            )
        ).one()
        service_values, node_values = _columns(service), _columns(node)
        for values in (service_values, node_values):
            del values["id"]
            values.update(created_at=now, updated_at=None)
        session.execute(
            sa.insert(service_model),
            [
                {**service_values, "host": name, "uuid": uuidutils.generate_uuid()}
                for name in names
            ],
        )
        service_ids = dict(
            session.execute(
                sa.select(service_model.host, service_model.id).where(
                    service_model.binary == "nova-compute", service_model.deleted == 0
                )
            ).all()
        )
        node_rows = [
            {
                **node_values,
                "host": name,
                "hypervisor_hostname": name,
                "uuid": uuidutils.generate_uuid(),
                "service_id": service_ids[name],
            }
            for name in names
        ]
        session.execute(sa.insert(node_model), node_rows)
    return node_rows


def _map_hosts(context, names: list[str]) -> None:
    """Host mappings for ``names`` in the (single) cell, in one insert, and
    their nodes marked mapped, as discover_hosts would leave them."""
    cell = next(c for c in objects.CellMappingList.get_all(context) if not c.is_cell0())
    now = _now()
    with engines.transaction(context.api_db_connection) as session:
        session.execute(
            sa.insert(api_models.HostMapping),
            [{"host": name, "cell_id": cell.id, "created_at": now} for name in names],
        )
    with engines.transaction(context.db_connection) as session:
        session.execute(
            sa.update(main_models.ComputeNode)
            .where(main_models.ComputeNode.host.in_(names))
            .values(mapped=1)
        )


def _register_provider(client, node: dict, inventory: dict) -> None:
    """The provider of a copied node with the template's inventory: two
    requests, as the node's resource tracker would end up."""
    try:
        provider = client.create_provider(
            node["hypervisor_hostname"], uuid=node["uuid"]
        )
        generation = provider.generation
    except placement_exc.ResourceProviderConflict:
        generation = None  # an interrupted earlier run created it
    client.set_inventory(node["uuid"], inventory, generation=generation)


def add_hosts(context, names: list[str], concurrency: int = 8) -> None:
    """Register ``names``: the first through the real resource tracker
    (unless an earlier call did), the others as copies of it, with
    ``concurrency`` Placement requests in flight."""
    if not names:
        return
    template = objects.ComputeNodeList.get_all(context)
    if template:
        template = template[0]
    else:
        add_host(context, names[0])
        _map_hosts(context, names[:1])
        names = names[1:]
        template = objects.ComputeNodeList.get_all(context)[0]
    if not names:
        return
    nodes = _copy_rows(context, template.host, names)
    inventory = inventory_of(template)
    client = placement.client()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        for future in [
            pool.submit(_register_provider, client, node, inventory) for node in nodes
        ]:
            future.result()
    _map_hosts(context, names)


def heartbeat(cell_database_url: str) -> None:
    """Every fake host reports in now."""
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    with engines.get_engine(cell_database_url).begin() as connection:
        connection.execute(sa.update(main_models.Service).values(last_seen_up=now))


def keep_alive(cell_database_url: str, interval: float = 10.0) -> threading.Event:
    """Heartbeat every fake host every ``interval`` seconds from a daemon
    thread, until the returned event is set."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.is_set():
            heartbeat(cell_database_url)
            stop.wait(interval)

    threading.Thread(target=beat, name="fake-heartbeats", daemon=True).start()
    return stop


def registered_hosts(context) -> int:
    """How many fake hosts an earlier run left in the cell database."""
    return len(objects.ServiceList.get_by_binary(context, "nova-compute"))
