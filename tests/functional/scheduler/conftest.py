"""A cell of compute nodes registered in the real Placement, for the
scheduler's tests: SQLite API and cell databases, one provider per node.

Each test gets its own resource class so that other tests' providers
(Placement is shared by the session) never fit its requests.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable

import oslo_messaging
import pytest
from oslo_utils import uuidutils

from nova import context, objects, placement
from nova.conf import CONF
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from nova.scheduler import manager
from tests.unit.scheduler.conftest import flags, flavor, spec  # noqa: F401

objects.register_all()


@dataclasses.dataclass
class Cloud:
    ctxt: context.RequestContext
    resource_class: str
    cell: objects.CellMapping
    client: object
    add_host: Callable[..., objects.ComputeNode]

    def add_aggregate(self, name: str, hosts, metadata=None) -> objects.Aggregate:
        """A nova aggregate, mirrored into Placement as the aggregates API
        does."""
        aggregate = objects.Aggregate(
            self.ctxt, name=name, metadata=dict(metadata or {})
        )
        aggregate.create()
        for host in hosts:
            aggregate.add_host(host.host)
            members = self.client.get_aggregates(host.uuid).aggregates
            self.client.set_aggregates(host.uuid, {*members, aggregate.uuid})
        return aggregate

    def spec(self, units: int = 1, extra_specs=None, **kwargs) -> objects.RequestSpec:
        """A request for ``units`` of the test's resource class and 1 VCPU."""
        specs = {
            f"resources:{self.resource_class}": str(units),
            "resources:MEMORY_MB": "0",
            **(extra_specs or {}),
        }
        spec_obj = spec(
            flavor=flavor(memory_mb=0, vcpus=1, root_gb=0, extra_specs=specs),
            **kwargs,
        )
        spec_obj._context = self.ctxt
        return spec_obj


def select(ctxt, spec_obj, uuids=None, scheduler=None):
    """select_destinations as the RPC server runs it (expected exceptions
    unwrapped); one new instance unless ``uuids`` are given."""
    scheduler = scheduler or manager.SchedulerManager("s")
    uuids = uuids or [uuidutils.generate_uuid()]
    try:
        return scheduler.select_destinations(ctxt, spec_obj, uuids)
    except oslo_messaging.ExpectedException as wrapped:
        raise wrapped.exc_info[1] from None


@pytest.fixture
def cloud(tmp_path, placement_client, monkeypatch):
    api = f"sqlite:///{tmp_path / 'api.sqlite'}"
    cell_url = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    api_models.BASE.metadata.create_all(engines.get_engine(api))
    main_models.BASE.metadata.create_all(engines.get_engine(cell_url))
    CONF.set_override("connection", api, group="api_database")
    CONF.set_override("connection", cell_url, group="database")
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    ctxt = context.get_admin_context()
    cell = objects.CellMapping(
        ctxt,
        uuid=uuidutils.generate_uuid(),
        name="cell1",
        transport_url="fake://",
        database_connection=cell_url,
    )
    cell.create()
    resource_class = "CUSTOM_T" + uuidutils.generate_uuid()[:8].upper()
    placement_client._transport.request(
        "PUT", f"/resource_classes/{resource_class}", "1.7"
    )

    def add_host(
        name,
        units=4,
        up=True,
        vcpus=8,
        traits=(),
        stats=None,
        hypervisor_version=1,
        supported=(("x86_64", "fake", "hvm"),),
    ) -> objects.ComputeNode:
        seen = datetime.datetime.now(datetime.UTC)
        if not up:
            seen -= datetime.timedelta(hours=1)
        service = objects.Service(
            ctxt, host=name, binary="nova-compute", topic="compute"
        )
        service.create()
        service.last_seen_up = seen
        service.save()
        node = objects.ComputeNode(
            ctxt,
            host=name,
            hypervisor_hostname=name,
            vcpus=vcpus,
            memory_mb=8192,
            local_gb=100,
            vcpus_used=0,
            memory_mb_used=0,
            local_gb_used=0,
            hypervisor_type="fake",
            hypervisor_version=hypervisor_version,
            cpu_info="{}",
            supported_hv_specs=[list(s) for s in supported],
            stats=dict(stats or {}),
        )
        node.create()
        objects.HostMapping(ctxt, host=name, cell_mapping=cell).create()
        placement_client.create_provider(f"{name}-{node.uuid}", uuid=node.uuid)
        placement_client.set_inventory(
            node.uuid, {resource_class: {"total": units}, "VCPU": {"total": vcpus}}
        )
        if traits:
            placement_client.set_traits(node.uuid, traits)
        return node

    yield Cloud(ctxt, resource_class, cell, placement_client, add_host)
    for group in ("api_database", "database"):
        CONF.clear_override("connection", group=group)
    engines.dispose(api)
    engines.dispose(cell_url)
