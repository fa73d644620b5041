"""The conductor's object proxy, called directly over a SQLite cell database."""

import oslo_messaging
import pytest

from nova import context, exception, objects
from nova.conductor import manager
from nova.conf import CONF
from nova.db import engines
from nova.db.main import models
from nova.states import task_states, vm_states

objects.register_all()


@pytest.fixture
def conductor(tmp_path):
    url = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    models.BASE.metadata.create_all(engines.get_engine(url))
    CONF.set_override("connection", url, group="database")
    yield manager.ConductorManager("conductor-host")
    CONF.clear_override("connection", group="database")
    engines.dispose(url)


def _instance(ctxt):
    instance = objects.Instance(
        ctxt,
        project_id="p",
        vm_state=vm_states.BUILDING,
        task_state=task_states.SCHEDULING,
        flavor=objects.Flavor(
            id=1,
            flavorid="f",
            name="f",
            memory_mb=1,
            vcpus=1,
            root_gb=0,
            ephemeral_gb=0,
            swap=0,
            extra_specs={},
        ),
    )
    instance.create()
    return instance


def test_object_action_returns_what_the_method_changed(conductor):
    ctxt = context.get_admin_context()
    instance = _instance(ctxt)
    instance.task_state = task_states.SPAWNING
    updates, result = conductor.object_action(
        ctxt, instance, "save", (), {"expected_task_state": task_states.SCHEDULING}
    )
    assert result is None
    # save() stamped updated_at: the caller's copy must learn it.
    assert "updated_at" in updates
    assert updates["obj_what_changed"] == set()


def test_object_action_errors_are_expected_ones(conductor):
    ctxt = context.get_admin_context()
    instance = _instance(ctxt)
    instance.task_state = None
    with pytest.raises(oslo_messaging.ExpectedException) as error:
        conductor.object_action(
            ctxt, instance, "save", (), {"expected_task_state": task_states.SPAWNING}
        )
    assert isinstance(error.value.exc_info[1], exception.UnexpectedTaskStateError)


def test_class_actions_answer_at_the_callers_version(conductor):
    ctxt = context.get_admin_context()
    instance = _instance(ctxt)
    found = conductor.object_class_action_versions(
        ctxt,
        "Instance",
        "get_by_uuid",
        {"Instance": objects.Instance.VERSION},
        (instance.uuid,),
        {"expected_attrs": []},
    )
    assert isinstance(found, objects.Instance) and found.id == instance.id


def test_backport_to_the_callers_version(conductor):
    cell = objects.CellMapping(
        uuid="6d4c2f2e-3c0b-4c6b-9b7e-1f0a2b3c4d5e",
        name="c",
        transport_url="fake://",
        database_connection="sqlite://",
        disabled=True,
    )
    primitive = conductor.object_backport_versions(
        context.get_admin_context(), cell, {"CellMapping": "1.0"}
    )
    assert primitive["nova_object.version"] == "1.0"
    assert "disabled" not in primitive["nova_object.data"]
