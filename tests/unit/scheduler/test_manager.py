"""select_destinations against the real Placement and SQLite cell databases."""

import datetime

import oslo_messaging
import pytest
from oslo_utils import uuidutils

from nova import context, exception, objects, placement
from nova.conf import CONF
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from nova.scheduler import manager
from tests.unit.scheduler.conftest import flavor, spec


@pytest.fixture
def cloud(tmp_path, placement_client, monkeypatch):
    """A cell whose compute hosts have providers in Placement; each test
    gets its own resource class so that other tests' providers never fit."""
    api = f"sqlite:///{tmp_path / 'api.sqlite'}"
    cell = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    api_models.BASE.metadata.create_all(engines.get_engine(api))
    main_models.BASE.metadata.create_all(engines.get_engine(cell))
    CONF.set_override("connection", api, group="api_database")
    CONF.set_override("connection", cell, group="database")
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    ctxt = context.get_admin_context()
    objects.CellMapping(
        ctxt,
        uuid=uuidutils.generate_uuid(),
        name="cell1",
        transport_url="fake://",
        database_connection=cell,
    ).create()
    resource_class = "CUSTOM_T" + uuidutils.generate_uuid()[:8].upper()

    def add_host(name, units=4, up=True):
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
            vcpus=8,
            memory_mb=8192,
            local_gb=100,
            vcpus_used=0,
            memory_mb_used=0,
            local_gb_used=0,
            hypervisor_type="fake",
            hypervisor_version=1,
            cpu_info="{}",
            supported_hv_specs=[["x86_64", "fake", "hvm"]],
            stats={},
        )
        node.create()
        placement_client.create_provider(f"{name}-{node.uuid}", uuid=node.uuid)
        # (The client has no call for creating resource classes; nova never
        # needs one.)
        placement_client._transport.request(
            "PUT", f"/resource_classes/{resource_class}", "1.7"
        )
        placement_client.set_inventory(
            node.uuid, {resource_class: {"total": units}, "VCPU": {"total": 8}}
        )
        return node

    yield ctxt, resource_class, add_host
    for group in ("api_database", "database"):
        CONF.clear_override("connection", group=group)
    engines.dispose(api)
    engines.dispose(cell)


def _select(ctxt, spec_obj, uuids):
    # The RPC dispatcher unwraps expected exceptions; here we do.
    try:
        return manager.SchedulerManager("s").select_destinations(ctxt, spec_obj, uuids)
    except oslo_messaging.ExpectedException as wrapped:
        raise wrapped.exc_info[1] from None


def _spec(resource_class, units=1, **kwargs):
    return spec(
        flavor=flavor(
            memory_mb=0,
            vcpus=1,
            root_gb=0,
            extra_specs={
                f"resources:{resource_class}": str(units),
                "resources:MEMORY_MB": "0",
            },
        ),
        **kwargs,
    )


def test_multi_create_spreads_and_claims(cloud, placement_client):
    ctxt, rc, add_host = cloud
    a, b = add_host("sched-a"), add_host("sched-b")
    uuids = [uuidutils.generate_uuid() for _ in range(4)]
    selections = _select(ctxt, _spec(rc), uuids)
    chosen = [s[0].compute_node_uuid for s in selections]
    assert sorted(chosen) == sorted([a.uuid, a.uuid, b.uuid, b.uuid])
    # The other host is the alternate, its allocation request ready to claim.
    first = selections[0]
    assert len(first) == 2 and first[1].compute_node_uuid != first[0].compute_node_uuid
    assert first[1].allocation_request and first[0].cell_uuid
    for uuid, node in zip(uuids, chosen, strict=True):
        allocations = placement_client.get_allocations_for_consumer(uuid).allocations
        assert allocations[node]["resources"][rc] == 1


def test_filters_say_how_many_hosts_they_removed(cloud, placement_client):
    ctxt, rc, add_host = cloud
    add_host("sched-down-1", up=False)
    add_host("sched-down-2", up=False)
    with pytest.raises(exception.NoValidHost) as error:
        _select(ctxt, _spec(rc), [uuidutils.generate_uuid()])
    assert "ComputeFilter removed 2 of 2" in str(error.value)


def test_placement_shortage_names_the_resource_class(cloud):
    ctxt, rc, add_host = cloud
    add_host("sched-small", units=2)
    with pytest.raises(exception.NoValidHost) as error:
        _select(ctxt, _spec(rc, units=3), [uuidutils.generate_uuid()])
    assert f"no resource provider has enough free {rc} (requested 3)" in str(
        error.value
    )


def test_a_request_that_does_not_all_fit_claims_nothing(cloud, placement_client):
    ctxt, rc, add_host = cloud
    add_host("sched-one", units=2)
    uuids = [uuidutils.generate_uuid() for _ in range(3)]
    with pytest.raises(exception.NoValidHost, match="room for only 2 of the 3"):
        _select(ctxt, _spec(rc), uuids)
    for uuid in uuids:
        assert placement_client.get_allocations_for_consumer(uuid).allocations == {}


def test_forced_and_ignored_hosts(cloud):
    ctxt, rc, add_host = cloud
    add_host("sched-x")
    y = add_host("sched-y")
    [[chosen, *_]] = _select(
        ctxt, _spec(rc, ignore_hosts=["sched-x"]), [uuidutils.generate_uuid()]
    )
    assert chosen.compute_node_uuid == y.uuid
    destination = objects.Destination(host="sched-x")
    [[chosen, *alternates]] = _select(
        ctxt, _spec(rc, requested_destination=destination), [uuidutils.generate_uuid()]
    )
    assert chosen.service_host == "sched-x" and alternates == []
