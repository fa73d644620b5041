"""os-aggregates over HTTP: CRUD, host membership mirrored into the real
Placement's aggregates, zone conflicts, and upstream's error codes."""

import uuid

import pytest

from nova import context as nova_context
from nova import objects, placement
from nova.cmd.manage_placement import PlacementCommands
from tests.fixtures.compute_nodes import create_compute_node
from tests.functional.api.conftest import ADMIN, DEMO, fault

AGGREGATES = "/v2.1/os-aggregates"


@pytest.fixture
def placement_conf(placement_client, monkeypatch):
    """nova-api talking to the test's real Placement."""
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    return placement_client


@pytest.fixture
def compute_host(nova_conf, placement_conf):
    """A compute host of cell1 with one node, its provider in Placement."""
    host = f"agg-host-{uuid.uuid4().hex[:8]}"
    context = nova_context.get_admin_context()
    cell = nova_conf["cells"]["cell1"]
    with nova_context.target_cell(context, cell) as cctxt:
        objects.Service(
            cctxt, host=host, binary="nova-compute", topic="compute"
        ).create()
        node = create_compute_node(cctxt, host)
    objects.HostMapping(context, host=host, cell_mapping=cell).create()
    placement_conf.ensure_provider(node.uuid, host)
    return host, node.uuid


def _create(api, name="agg1", zone=None, version="2.1"):
    body = {"name": name}
    if zone is not None:
        body["availability_zone"] = zone
    return api.post(AGGREGATES, {"aggregate": body}, token=ADMIN, version=version)


def _action(api, aggregate_id, body, version="2.1"):
    return api.post(
        f"{AGGREGATES}/{aggregate_id}/action", body, token=ADMIN, version=version
    )


def test_crud_and_microversion_2_41_uuid(api):
    response = _create(api, zone="az1")
    assert response.status_code == 200
    created = response.json()["aggregate"]
    # Upstream's create answer has no hosts or metadata, and no uuid < 2.41.
    assert "hosts" not in created and "metadata" not in created
    assert "uuid" not in created
    assert created["availability_zone"] == "az1" and created["deleted"] is False

    agg_id = created["id"]
    shown = api.get(f"{AGGREGATES}/{agg_id}", token=ADMIN, version="2.41").json()
    shown = shown["aggregate"]
    assert shown["hosts"] == [] and shown["metadata"] == {"availability_zone": "az1"}
    assert len(shown["uuid"]) == 36

    updated = api.put(
        f"{AGGREGATES}/{agg_id}", {"aggregate": {"name": "renamed"}}, token=ADMIN
    ).json()["aggregate"]
    assert updated["name"] == "renamed" and updated["availability_zone"] == "az1"

    meta = _action(api, agg_id, {"set_metadata": {"metadata": {"ssd": "true"}}})
    assert meta.json()["aggregate"]["metadata"] == {
        "availability_zone": "az1",
        "ssd": "true",
    }
    meta = _action(api, agg_id, {"set_metadata": {"metadata": {"ssd": None}}})
    assert "ssd" not in meta.json()["aggregate"]["metadata"]

    listed = api.get(AGGREGATES, token=ADMIN).json()["aggregates"]
    assert [a["name"] for a in listed] == ["renamed"]
    assert api.delete(f"{AGGREGATES}/{agg_id}", token=ADMIN).status_code == 200
    assert api.get(f"{AGGREGATES}/{agg_id}", token=ADMIN).status_code == 404


def test_errors_are_upstreams(api):
    assert _create(api).status_code == 200
    assert fault(_create(api)) == (
        "conflictingRequest",
        409,
        "Aggregate agg1 already exists.",
    )
    assert fault(_create(api, name=" padded"))[1] == 400
    assert fault(_create(api, name="x", zone="a:b"))[1] == 400
    assert fault(api.get(f"{AGGREGATES}/abc", token=ADMIN))[1] == 400
    assert fault(api.get(f"{AGGREGATES}/9999", token=ADMIN))[1] == 404
    assert fault(api.put(f"{AGGREGATES}/1", {"aggregate": {}}, token=ADMIN))[1] == 400
    assert fault(_action(api, 1, {"explode": {}}))[1] == 400
    assert fault(api.get(AGGREGATES, token=DEMO))[:2] == ("forbidden", 403)
    as_member = api.post(AGGREGATES, {"aggregate": {"name": "n"}}, token=DEMO)
    assert fault(as_member)[1] == 403


def test_add_and_remove_host_mirror_placement(api, compute_host, placement_conf):
    host, node_uuid = compute_host
    created = _create(api, zone="az1", version="2.41").json()["aggregate"]
    agg_id, agg_uuid = created["id"], created["uuid"]

    added = _action(api, agg_id, {"add_host": {"host": host}}, version="2.41")
    assert added.status_code == 200
    assert added.json()["aggregate"]["hosts"] == [host]
    assert agg_uuid in placement_conf.get_aggregates(node_uuid).aggregates

    again = _action(api, agg_id, {"add_host": {"host": host}})
    assert fault(again)[:2] == ("conflictingRequest", 409)
    unknown = _action(api, agg_id, {"add_host": {"host": "no-such-host"}})
    assert fault(unknown)[:2] == ("itemNotFound", 404)

    # A host is in one zone: another zone's aggregate may not take it.
    other = _create(api, name="agg2", zone="az2").json()["aggregate"]["id"]
    refused = _action(api, other, {"add_host": {"host": host}})
    assert fault(refused)[:2] == ("conflictingRequest", 409)
    assert "az1" in fault(refused)[2]
    # Nor may its aggregate move it to a zone another aggregate contradicts.
    plain = _create(api, name="agg3").json()["aggregate"]["id"]
    assert _action(api, plain, {"add_host": {"host": host}}).status_code == 200
    moved = api.put(
        f"{AGGREGATES}/{plain}", {"aggregate": {"availability_zone": "az9"}},
        token=ADMIN,
    )  # fmt: skip
    assert fault(moved)[1] == 400

    # Not empty: no delete.
    assert fault(api.delete(f"{AGGREGATES}/{agg_id}", token=ADMIN))[1] == 400

    removed = _action(api, agg_id, {"remove_host": {"host": host}})
    assert removed.json()["aggregate"]["hosts"] == []
    assert agg_uuid not in placement_conf.get_aggregates(node_uuid).aggregates
    gone = _action(api, agg_id, {"remove_host": {"host": host}})
    assert fault(gone) == (
        "itemNotFound",
        404,
        f"Cannot remove host {host} in aggregate {agg_id}",
    )


def test_nova_manage_sync_aggregates_repairs_placement(
    api, compute_host, placement_conf
):
    host, node_uuid = compute_host
    created = _create(api, version="2.41").json()["aggregate"]
    _action(api, created["id"], {"add_host": {"host": host}})
    # Placement loses the membership (e.g. it was down during add_host).
    placement_conf.update_aggregates(node_uuid, remove=[created["uuid"]])

    assert PlacementCommands().sync_aggregates() == 0
    assert created["uuid"] in placement_conf.get_aggregates(node_uuid).aggregates

    # A member whose host is not mapped is reported, exit code 4.
    context = nova_context.get_admin_context()
    objects.Aggregate.get_by_id(context, created["id"]).add_host("unmapped-host")
    assert PlacementCommands().sync_aggregates() == 4
