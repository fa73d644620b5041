"""Servers of a cell whose database cannot be reached (microversion 2.69).

The down cell is a real cell mapping whose database URL points at a file
that cannot exist, so every query to it fails as an unreachable database's
would; its instances are known only from the API database.
"""

from __future__ import annotations

import uuid

import pytest

from nova import context as nova_context
from nova import objects
from tests.functional.api.conftest import fault
from tests.functional.api.test_servers import _create, _in_cell


@pytest.fixture
def down_cell(nova_conf, tmp_path):
    context = nova_context.get_admin_context()
    cell = objects.CellMapping(
        context,
        uuid=str(uuid.uuid4()),
        name="down",
        transport_url="none:///",
        database_connection=f"sqlite:///{tmp_path}/missing-dir/cell.db",
    )
    cell.create()
    yield cell
    cell.destroy(with_host_and_instance_mappings=True)


def _map_into(cell, instance_uuid: str, project="demo") -> None:
    objects.InstanceMapping(
        nova_context.get_admin_context(),
        instance_uuid=instance_uuid,
        cell_mapping=cell,
        project_id=project,
        user_id=project,
        queued_for_delete=False,
    ).create()


def test_lists_show_down_cell_servers_as_unknown_from_2_69(
    api, nova_conf, flavor, down_cell
):
    reachable = _in_cell(nova_conf, "cell1", display_name="up")
    lost = str(uuid.uuid4())
    _map_into(down_cell, lost)
    _map_into(down_cell, str(uuid.uuid4()), project="other")

    servers = api.get("/v2.1/servers", version="2.69").json()["servers"]
    by_id = {s["id"]: s for s in servers}
    assert set(by_id) == {reachable.uuid, lost}
    assert by_id[lost]["status"] == "UNKNOWN" and "name" not in by_id[lost]
    assert by_id[reachable.uuid]["name"] == "up"

    detail = api.get("/v2.1/servers/detail", version="2.69").json()["servers"]
    minimal = next(s for s in detail if s["id"] == lost)
    assert set(minimal) == {"id", "status", "tenant_id", "created", "links"}
    assert minimal["tenant_id"] == "demo"

    # Before 2.69 the down cell is left out.
    older = api.get("/v2.1/servers", version="2.68").json()["servers"]
    assert [s["id"] for s in older] == [reachable.uuid]


def test_show_from_a_down_cell(api, nova_conf, glance, flavor, conductor, down_cell):
    server_id = _create(api, glance.active)
    # The build request is gone and the server mapped into the down cell,
    # as if the cell's database had failed after scheduling.
    context = nova_context.get_admin_context()
    objects.BuildRequest.get_by_instance_uuid(context, server_id).destroy()
    mapping = objects.InstanceMapping.get_by_instance_uuid(context, server_id)
    mapping.cell_mapping = down_cell
    mapping.save()

    shown = api.get(f"/v2.1/servers/{server_id}", version="2.69").json()["server"]
    assert shown["status"] == "UNKNOWN" and shown["user_id"] == "demo"
    assert shown["image"]["id"] == glance.active
    assert shown["flavor"]["vcpus"] == 1 and shown["flavor"]["original_name"]
    assert shown["OS-EXT-STS:power_state"] == 0
    assert "server_groups" not in shown
    later = api.get(f"/v2.1/servers/{server_id}", version="2.71").json()["server"]
    assert later["server_groups"] == []
    response = api.get(f"/v2.1/servers/{server_id}", version="2.68")
    assert fault(response)[1] >= 500
