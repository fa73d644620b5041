"""[upgrade_levels]: values, and ``auto`` read from the service versions
the services of every cell recorded (SQLite cell databases)."""

import pytest
from oslo_utils import uuidutils

from nova import context, exception, objects, rpc, upgrade_levels
from nova.compute import manager as compute_manager
from nova.compute import rpcapi as compute_rpcapi
from nova.conductor import rpcapi as conductor_rpcapi
from nova.conf import CONF
from nova.conf import upgrade_levels as conf_upgrade_levels
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from nova.objects import service as service_obj

objects.register_all()

NEWEST = service_obj.SERVICE_VERSION
# The compute RPC versions the newest and the one before it speak.
NEWEST_RPC = service_obj.SERVICE_VERSION_HISTORY[NEWEST]["compute_rpc"]
PREVIOUS_RPC = service_obj.SERVICE_VERSION_HISTORY[NEWEST - 1]["compute_rpc"]


@pytest.mark.parametrize(
    ("value", "cap"), [(None, None), ("auto", "auto"), ("1.3", "1.3")]
)
def test_values(value, cap):
    assert upgrade_levels.parse("compute", value) == cap


@pytest.mark.parametrize("value", ["liberty", "1", "1.x", "1.2.3"])
def test_bad_values(value):
    with pytest.raises(exception.InvalidRPCVersion):
        upgrade_levels.parse("compute", value)


def test_the_history_ends_at_what_this_code_speaks():
    history = service_obj.SERVICE_VERSION_HISTORY
    assert len(history) == NEWEST + 1
    newest = history[NEWEST]["compute_rpc"]
    assert newest == compute_rpcapi.ComputeAPI.VERSION
    assert newest == compute_manager.ComputeManager.target.version
    # Versions only grow.
    as_tuples = [tuple(map(int, h["compute_rpc"].split("."))) for h in history]
    assert as_tuples == sorted(as_tuples)


@pytest.fixture
def cells(tmp_path):
    """An API database mapping cell0 and two cells, each a SQLite file."""
    api = f"sqlite:///{tmp_path / 'api.sqlite'}"
    api_models.BASE.metadata.create_all(engines.get_engine(api))
    CONF.set_override("connection", api, group="api_database")
    CONF.set_override("compute", "auto", group="upgrade_levels")
    ctxt = context.get_admin_context()
    urls = []
    for name in ("cell0", "cell1", "cell2"):
        url = f"sqlite:///{tmp_path / name}.sqlite"
        main_models.BASE.metadata.create_all(engines.get_engine(url))
        objects.CellMapping(
            ctxt,
            uuid=objects.CellMapping.CELL0_UUID
            if name == "cell0"
            else uuidutils.generate_uuid(),
            name=name,
            transport_url="none:///",
            database_connection=url,
        ).create()
        urls.append(url)
    upgrade_levels.reset()
    yield urls[1:]
    upgrade_levels.reset()
    CONF.clear_override("compute", group="upgrade_levels")
    CONF.clear_override("connection", group="api_database")
    for url in [api, *urls]:
        engines.dispose(url)


def _service(url, host, version, binary="nova-compute", **fields):
    ctxt = context.get_admin_context()
    cell = objects.CellMapping(
        uuid=uuidutils.generate_uuid(),
        database_connection=url,
        transport_url="none:///",
    )
    with context.target_cell(ctxt, cell) as cctxt:
        service = objects.Service(
            cctxt, host=host, binary=binary, topic="compute", version=version, **fields
        )
        service.create()
        return service


def test_auto_is_what_the_oldest_compute_of_any_cell_speaks(cells):
    cell1, cell2 = cells
    _service(cell1, "new1", NEWEST)
    _service(cell2, "new2", NEWEST)
    _service(cell2, "old", NEWEST - 1)
    # Neither the other binaries nor the computes forced down, deleted or
    # without a version count.
    _service(cell1, "conductor", 2, binary="nova-conductor")
    _service(cell1, "gone", 1, forced_down=True)
    _service(cell1, "unknown", 0)
    _service(cell2, "deleted", 3).destroy()

    api = compute_rpcapi.ComputeAPI()
    assert api.version_cap == PREVIOUS_RPC
    assert api.can_send_version(PREVIOUS_RPC) and not api.can_send_version(NEWEST_RPC)


def test_auto_is_kept_until_the_configuration_is_reloaded(cells):
    cell1, _ = cells
    old = _service(cell1, "old", NEWEST - 1)
    api = compute_rpcapi.ComputeAPI()
    assert api.version_cap == PREVIOUS_RPC
    # The old compute is upgraded: the clients keep their cap until SIGHUP.
    old.version = NEWEST
    old.save()
    assert api.version_cap == PREVIOUS_RPC
    upgrade_levels.reset()
    assert api.version_cap == NEWEST_RPC


def test_auto_without_computes_is_no_cap_and_not_kept(cells):
    cell1, _ = cells
    assert compute_rpcapi.ComputeAPI().version_cap is None
    _service(cell1, "oldest", 1)
    assert compute_rpcapi.ComputeAPI().version_cap == "1.0"


def test_a_compute_newer_than_this_code_gets_the_newest_version(cells):
    cell1, _ = cells
    _service(cell1, "future", NEWEST + 5)
    assert compute_rpcapi.ComputeAPI().version_cap == NEWEST_RPC


def test_a_cell_that_does_not_answer_is_left_out_and_asked_again(cells, tmp_path):
    cell1, cell2 = cells
    _service(cell1, "new", NEWEST)
    _service(cell2, "old", NEWEST - 1)
    engines.dispose(cell2)
    (tmp_path / "cell2.sqlite").unlink()
    (tmp_path / "cell2.sqlite").mkdir()  # no longer a database
    assert compute_rpcapi.ComputeAPI().version_cap == NEWEST_RPC
    assert upgrade_levels._auto_caps == {}


def test_without_the_api_database_auto_reads_the_own_cell(cells):
    cell1, cell2 = cells
    _service(cell1, "new", NEWEST)
    _service(cell2, "old", 3)
    CONF.set_override("connection", None, group="api_database")
    CONF.set_override("connection", cell1, group="database")
    try:
        assert compute_rpcapi.ComputeAPI().version_cap == NEWEST_RPC
    finally:
        CONF.clear_override("connection", group="database")


def test_other_apis_take_auto_as_no_cap():
    CONF.set_override("conductor", "auto", group="upgrade_levels")
    try:
        assert conductor_rpcapi.ComputeTaskAPI().version_cap is None
    finally:
        CONF.clear_override("conductor", group="upgrade_levels")


def test_the_caps_are_reloaded_with_the_configuration():
    # Service.reset (SIGHUP) mutates the configuration: the caps go with it.
    assert all(opt.mutable for opt in conf_upgrade_levels.upgrade_levels_opts)


def test_messages_above_the_cap_are_refused_before_sending():
    CONF.set_override("compute", "1.1", group="upgrade_levels")
    CONF.set_override("transport_url", "fake:///")
    try:
        instance = objects.Instance(uuid=uuidutils.generate_uuid(), host="h1")
        with pytest.raises(exception.RPCPinnedToOldVersion) as error:
            compute_rpcapi.ComputeAPI().stop_instance(
                context.get_admin_context(), instance
            )
        assert error.value.code == 409
        assert str(error.value) == (
            "RPC is pinned to old version: this request needs compute RPC "
            "version 1.2, above the cap 1.1 ([upgrade_levels] compute)"
        )
    finally:
        CONF.clear_override("compute", group="upgrade_levels")
        CONF.clear_override("transport_url")
        rpc.cleanup()
