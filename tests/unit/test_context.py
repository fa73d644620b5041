"""nova.context: identity, RPC round trip, admin elevation, cell targeting."""

import threading
import types

import pytest

from nova import context, exception
from nova.conf import CONF


@pytest.fixture
def databases():
    CONF.set_override("connection", "sqlite:////tmp/api.db", group="api_database")
    CONF.set_override("connection", "sqlite:////tmp/local.db", group="database")
    yield
    CONF.clear_override("connection", group="api_database")
    CONF.clear_override("connection", group="database")


def _cell(uuid, connection):
    return types.SimpleNamespace(uuid=uuid, database_connection=connection)


def test_round_trip_through_a_dict():
    original = context.RequestContext(
        user_id="user",
        project_id="project",
        roles=["member", "reader"],
        read_deleted="yes",
        remote_address="192.0.2.7",
        global_request_id="req-global",
        user_name="alice",
        project_name="demo",
        service_catalog=[{"type": "volumev3"}],
    )
    values = original.to_dict()
    restored = context.RequestContext.from_dict(values)

    for attribute in (
        "user_id", "project_id", "roles", "read_deleted", "remote_address",
        "request_id", "global_request_id", "user_name", "project_name",
        "timestamp", "service_catalog", "is_admin",
    ):  # fmt: skip
        assert getattr(restored, attribute) == getattr(original, attribute), attribute
    # oslo.context's own keys stay, for services reading them.
    assert values["user"] == "user" and values["project_id"] == "project"


def test_read_deleted_is_validated():
    with pytest.raises(ValueError):
        context.RequestContext(read_deleted="maybe")


def test_admin_context_is_not_stored_as_the_current_one():
    admin = context.get_admin_context()
    assert admin.is_admin and admin.read_deleted == "no"
    assert context.oslo_context.get_current() is not admin


def test_elevated_is_an_admin_copy():
    user = context.RequestContext(user_id="u", project_id="p", roles=["member"])
    admin = user.elevated(read_deleted="yes")
    assert admin.is_admin and "admin" in admin.roles
    assert admin.read_deleted == "yes"
    assert not user.is_admin and user.roles == ["member"]
    assert user.read_deleted == "no"


def test_untargeted_context_uses_the_local_databases(databases):
    ctxt = context.get_admin_context()
    assert ctxt.api_db_connection == "sqlite:////tmp/api.db"
    assert ctxt.db_connection == "sqlite:////tmp/local.db"
    assert ctxt.cell_uuid is None


def test_unset_database_options_are_named():
    ctxt = context.get_admin_context()
    with pytest.raises(exception.DatabaseNotConfigured, match="api_database"):
        ctxt.api_db_connection  # noqa: B018
    with pytest.raises(exception.DatabaseNotConfigured, match=r"\[database\]"):
        ctxt.db_connection  # noqa: B018


def test_target_cell_yields_a_targeted_copy(databases):
    ctxt = context.get_admin_context()
    with context.target_cell(ctxt, _cell("c1", "sqlite:////tmp/cell1.db")) as cctxt:
        assert cctxt.db_connection == "sqlite:////tmp/cell1.db"
        assert cctxt.cell_uuid == "c1"
        assert cctxt.api_db_connection == "sqlite:////tmp/api.db"
        # Elevating keeps the target.
        assert cctxt.elevated().db_connection == "sqlite:////tmp/cell1.db"
    assert ctxt.db_connection == "sqlite:////tmp/local.db"


def test_threads_target_cells_independently(databases):
    ctxt = context.get_admin_context()
    seen = {}
    barrier = threading.Barrier(2)

    def work(name):
        with context.target_cell(ctxt, _cell(name, f"sqlite:////tmp/{name}.db")) as c:
            barrier.wait()
            seen[name] = c.db_connection

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"a": "sqlite:////tmp/a.db", "b": "sqlite:////tmp/b.db"}
