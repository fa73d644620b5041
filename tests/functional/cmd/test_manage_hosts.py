"""nova-manage cell_v2: discover_hosts, list_hosts, delete_host."""

from __future__ import annotations

import threading

from nova import context, objects
from nova.conf import CONF
from nova.db.api import models as api_models
from nova.objects import host_mapping
from tests.functional.cmd.conftest import (
    Manage,
    add_compute_node,
    add_instance,
    add_service,
    node_mapped_flags,
)


def _host_mappings(nova_manage: Manage) -> dict[str, int]:
    return {m.host: m.cell_id for m in nova_manage.api_rows(api_models.HostMapping)}


def test_discover_hosts_maps_new_compute_nodes_once(nova_manage: Manage):
    nova_manage.setup_cells()
    add_compute_node(nova_manage.cell1, "compute1")
    # Two nodes of one host (ironic-style) give one host mapping.
    add_compute_node(nova_manage.cell1, "compute2", node="node-a")
    add_compute_node(nova_manage.cell1, "compute2", node="node-b")

    first = nova_manage("cell_v2", "discover_hosts", "--strict", "--verbose")
    assert first.code == 0, first.err
    assert "Skipping cell0" in first.out
    assert "Creating host mapping for compute host 'compute1'" in first.out
    assert set(_host_mappings(nova_manage)) == {"compute1", "compute2"}
    assert node_mapped_flags(nova_manage.cell1) == {
        "compute1": 1,
        "node-a": 1,
        "node-b": 1,
    }

    # Nothing new: fine without --strict, a failure with it.
    assert nova_manage("cell_v2", "discover_hosts").code == 0
    assert nova_manage("cell_v2", "discover_hosts", "--strict").code == 1
    assert len(_host_mappings(nova_manage)) == 2


def test_discover_hosts_marks_nodes_of_an_already_mapped_host(nova_manage: Manage):
    nova_manage.setup_cells()
    add_compute_node(nova_manage.cell1, "compute1")
    assert nova_manage("cell_v2", "discover_hosts").code == 0
    # A node added later to a mapped host needs no new mapping.
    add_compute_node(nova_manage.cell1, "compute1", node="second-node")
    assert nova_manage("cell_v2", "discover_hosts", "--strict").code == 1
    assert node_mapped_flags(nova_manage.cell1)["second-node"] == 1


def test_discover_hosts_by_service(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    add_service(nova_manage.cell1, "ironic-host")
    add_service(nova_manage.cell1, "conductor-host", binary="nova-conductor")
    result = nova_manage(
        "cell_v2", "discover_hosts", "--by-service", "--strict", "--cell_uuid", cell1
    )
    assert result.code == 0, result.err
    assert set(_host_mappings(nova_manage)) == {"ironic-host"}


def test_discover_hosts_in_an_unknown_cell(nova_manage: Manage):
    nova_manage.setup_cells()
    result = nova_manage("cell_v2", "discover_hosts", "--cell_uuid", "nope")
    assert result.code == 1
    assert result.err.startswith("ERROR: ") and len(result.err.splitlines()) == 1


def test_concurrent_discovery_maps_each_host_once(nova_manage: Manage):
    nova_manage.setup_cells()
    hosts = [f"compute{i}" for i in range(6)]
    for host in hosts:
        add_compute_node(nova_manage.cell1, host)
    CONF.set_override("connection", nova_manage.api, group="api_database")
    try:
        results, errors = [], []
        start = threading.Barrier(4)

        def discover():
            start.wait()
            try:
                results.append(host_mapping.discover_hosts(context.get_admin_context()))
            except Exception as exc:  # collected, asserted below
                errors.append(exc)

        threads = [threading.Thread(target=discover) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        CONF.clear_override("connection", group="api_database")

    assert errors == []
    created = sorted(mapping.host for batch in results for mapping in batch)
    assert created == hosts
    assert sorted(_host_mappings(nova_manage)) == hosts
    assert set(node_mapped_flags(nova_manage.cell1).values()) == {1}


def test_list_hosts(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    add_compute_node(nova_manage.cell1, "compute-b")
    add_compute_node(nova_manage.cell1, "compute-a")
    nova_manage("cell_v2", "discover_hosts")

    result = nova_manage("cell_v2", "list_hosts")
    assert result.code == 0
    rows = [line.split("|")[1:4] for line in result.out.splitlines()[3:-1]]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["cell1", cell1, "compute-a"],
        ["cell1", cell1, "compute-b"],
    ]
    only_cell0 = nova_manage(
        "cell_v2", "list_hosts", "--cell_uuid", "00000000-0000-0000-0000-000000000000"
    )
    assert only_cell0.code == 0 and "compute-a" not in only_cell0.out
    assert nova_manage("cell_v2", "list_hosts", "--cell_uuid", "nope").code == 1


def test_delete_host(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    add_compute_node(nova_manage.cell1, "busy")
    add_compute_node(nova_manage.cell1, "idle")
    add_instance(nova_manage.cell1, host="busy")
    add_instance(nova_manage.cell1, host="idle", deleted=True)
    nova_manage("cell_v2", "discover_hosts")
    cell0 = "00000000-0000-0000-0000-000000000000"

    def delete(cell, host):
        return nova_manage(
            "cell_v2", "delete_host", "--cell_uuid", cell, "--host", host
        )

    assert delete("nope", "idle").code == 1
    assert delete(cell1, "unknown").code == 2
    assert delete(cell0, "idle").code == 3
    assert delete(cell1, "busy").code == 4
    assert set(_host_mappings(nova_manage)) == {"busy", "idle"}

    assert delete(cell1, "idle").code == 0
    assert set(_host_mappings(nova_manage)) == {"busy"}
    assert node_mapped_flags(nova_manage.cell1) == {"busy": 1, "idle": 0}


def test_objects_see_host_mappings_with_their_cell(nova_manage: Manage):
    cell1 = nova_manage.setup_cells()
    add_compute_node(nova_manage.cell1, "compute1")
    nova_manage("cell_v2", "discover_hosts")
    CONF.set_override("connection", nova_manage.api, group="api_database")
    try:
        ctxt = context.get_admin_context()
        mapping = objects.HostMapping.get_by_host(ctxt, "compute1")
        assert mapping.cell_mapping.uuid == cell1
        assert mapping.cell_mapping.name == "cell1"
        cells = objects.CellMappingList.get_by_disabled(ctxt, False)
        assert [cell.name for cell in cells] == ["cell0", "cell1"]
    finally:
        CONF.clear_override("connection", group="api_database")
