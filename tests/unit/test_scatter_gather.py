"""nova.scatter_gather: one function in every cell at once."""

import threading
import types

from nova import context, exception, objects, scatter_gather
from nova.conf import CONF
from nova.db import engines
from nova.db.api import models as api_models

objects.register_all()


def _cell(uuid):
    return types.SimpleNamespace(uuid=uuid, database_connection=f"sqlite:///{uuid}")


def test_results_come_in_the_cells_order_with_failures_as_exceptions():
    cells = [_cell("c1"), _cell("c2"), _cell("c3")]

    def fn(cctxt):
        if cctxt.cell_uuid == "c2":
            raise exception.InstanceNotFound(instance_id="x")
        return cctxt.cell_uuid.upper()

    results = scatter_gather.scatter_gather_cells(
        context.get_admin_context(), cells, fn
    )

    assert [cell.uuid for cell, _ in results] == ["c1", "c2", "c3"]
    assert results[0][1] == "C1" and results[2][1] == "C3"
    assert isinstance(results[1][1], exception.InstanceNotFound)


def test_a_cell_missing_the_deadline_gives_cell_timeout():
    release = threading.Event()

    def fn(cctxt):
        if cctxt.cell_uuid == "slow":
            release.wait(10)
        return "answered"

    try:
        results = scatter_gather.scatter_gather_cells(
            context.get_admin_context(),
            [_cell("slow"), _cell("fast")],
            fn,
            timeout=0.1,
        )
    finally:
        release.set()

    slow, fast = (result for _, result in results)
    assert isinstance(slow, exception.CellTimeout)
    assert "slow" in str(slow)
    assert fast == "answered"


def test_no_cells_no_calls():
    assert scatter_gather.scatter_gather_cells(None, [], lambda c: 1 / 0) == []


def test_all_cells_means_every_cell_mapping_cell0_included(tmp_path):
    api = f"sqlite:///{tmp_path / 'api.sqlite'}"
    api_models.BASE.metadata.create_all(engines.get_engine(api))
    CONF.set_override("connection", api, group="api_database")
    try:
        ctxt = context.get_admin_context()
        for uuid, name in ((objects.CellMapping.CELL0_UUID, "cell0"), ("c1", "c1")):
            objects.CellMapping(
                ctxt,
                uuid=uuid,
                name=name,
                transport_url="none:///",
                database_connection=f"sqlite:///{tmp_path / name}.sqlite",
            ).create()

        results = scatter_gather.scatter_gather_all_cells(
            ctxt, lambda cctxt: cctxt.db_connection
        )
    finally:
        CONF.clear_override("connection", group="api_database")
        engines.dispose(api)

    assert [(cell.name, url) for cell, url in results] == [
        ("cell0", f"sqlite:///{tmp_path / 'cell0'}.sqlite"),
        ("c1", f"sqlite:///{tmp_path / 'c1'}.sqlite"),
    ]
