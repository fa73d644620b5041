"""The instance state machine, walked: every row of
:data:`nova.states.machine.TRANSITIONS`, started through the real compute
API on a real database, from every vm_state and from every task state an
action may start from (plus one no action starts from).

Where the row allows the start, the action is accepted and claims the row's
task state (or, for a delete, takes the server away); where it does not,
the answer is the row's 409 and the server is left exactly as it was. The
hosts are recording doubles: what they do with a cast is proven elsewhere.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from collections.abc import Callable

import pytest

from nova import context as nova_context
from nova import exception, objects
from nova.compute.api import base as compute_base
from nova.compute.api import (
    delete,
    evacuate,
    guest,
    images,
    interfaces,
    moves,
    power,
    rebuild,
    rescue,
    servers,
)
from nova.conf import CONF
from nova.policies import server_diagnostics as diagnostics_policies
from nova.states import machine, task_states, vm_states
from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    cloud_databases,
    flavor,
    nova_conf,
)

HOST = "walk-host"
IMAGE_ID = "155d900f-4e14-4e4c-a73d-069cbf4541e6"

ALL_VM_STATES = sorted(
    value
    for name, value in vars(vm_states).items()
    if name.isupper() and isinstance(value, str)
)
# Every task state some row may start from, and one none starts from.
START_TASK_STATES = sorted(
    {
        state
        for transition in machine.TRANSITIONS.values()
        if transition.task_states is not machine.ANY
        for state in transition.task_states
    }
    | {task_states.IMAGE_UPLOADING},
    key=str,
)


class _Recorder:
    """Stands in for every RPC API the compute API casts or calls to."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)

        def record(*args, **kwargs):
            self.calls.append(name)
            return ANSWERS.get(name)

        return record


PORT_ID = "7e0b5c1a-2f7d-4c52-9a43-0d6c3b1e8f11"
# What the calls whose answer the compute API reads answer.
ANSWERS = {"attach_interface": {"id": PORT_ID}}


class _Ports:
    """The network service, as far as a detach asks it: the port is the
    server's (a missing one is a 404 before any state check)."""

    def show_port(self, context, instance, port_id):
        return {"id": port_id}


class _Images:
    """The image service, in memory: one active image, snapshots on demand."""

    def __init__(self) -> None:
        self.images = {IMAGE_ID: self._image(IMAGE_ID)}

    @staticmethod
    def _image(image_id: str) -> dict:
        return {
            "id": image_id, "status": "active", "min_ram": 0, "min_disk": 0,
            "size": 1024, "disk_format": "qcow2", "container_format": "bare",
            "properties": {},
        }  # fmt: skip

    def show(self, context, image_id):
        if image_id not in self.images:
            raise exception.ImageNotFound(image_id=image_id)
        return self.images[image_id]

    def create(self, context, image_meta):
        image = {**self._image(str(uuid.uuid4())), **image_meta, "status": "queued"}
        self.images[image["id"]] = image
        return image

    def delete(self, context, image_id):
        self.images.pop(image_id, None)


@dataclasses.dataclass
class Walk:
    context: object
    cell: object
    images: _Images

    def new_server(self):
        context = nova_context.get_admin_context()
        tiny = objects.Flavor.get_by_flavor_id(context, "1")
        with nova_context.target_cell(context, self.cell) as cctxt:
            instance = objects.Instance(
                cctxt,
                uuid=str(uuid.uuid4()), project_id="demo", user_id="demo",
                display_name="walk", vm_state=vm_states.ACTIVE, task_state=None,
                power_state=1, host=HOST, node=HOST, flavor=tiny,
                image_ref=IMAGE_ID, instance_type_id=tiny.id, locked=False,
                launched_at=datetime.datetime.now(datetime.UTC),
                system_metadata={}, metadata={},
            )  # fmt: skip
            instance.create()
        objects.InstanceMapping(
            context, instance_uuid=instance.uuid, cell_mapping=self.cell,
            project_id="demo", user_id="demo", queued_for_delete=False,
        ).create()  # fmt: skip
        objects.RequestSpec.from_components(
            context, instance.uuid, self.images.show(context, IMAGE_ID), tiny,
            filter_properties={}, availability_zone=None, project_id="demo",
            user_id="demo",
        ).create()  # fmt: skip
        return instance

    def set_state(self, instance, vm_state: str, task_state: str | None) -> None:
        instance.vm_state = vm_state
        instance.task_state = task_state
        instance.save()

    def read(self, instance):
        """(vm_state, task_state, deleted) as the cell has them now."""
        with nova_context.target_cell(self.context, self.cell) as cctxt:
            cctxt.read_deleted = "yes"
            row = objects.Instance.get_by_uuid(cctxt, instance.uuid)
        return row.vm_state, row.task_state, row.deleted


def _run(flow, method: str, *args, **kwargs) -> Callable:
    def run(walk: Walk, instance) -> None:
        api = flow(image=walk.images)
        getattr(api, method)(walk.context, instance, *args, **kwargs)

    return run


def _tags(method: str, *args) -> Callable:
    def run(walk: Walk, instance) -> None:
        getattr(servers.ServersAPI(image=walk.images), method)(instance, *args)

    return run


def _delete_metadata(walk: Walk, instance) -> None:
    # The item must be there: a missing one is a 404 before any state check.
    if "k" not in instance.metadata:
        instance.metadata = {"k": "v"}
        instance.save()
    servers.ServersAPI(image=walk.images).delete_instance_metadata(instance, "k")


def _delete_tag(walk: Walk, instance) -> None:
    if not objects.Tag.exists(instance._context, instance.uuid, "t"):
        objects.Tag(instance._context, resource_id=instance.uuid, tag="t").create()
    servers.ServersAPI(image=walk.images).delete_tag(instance, "t")


def _soft_delete(walk: Walk, instance) -> None:
    CONF.set_override("reclaim_instance_interval", 3600)
    try:
        delete.DeleteAPI(image=walk.images).delete(walk.context, instance)
    finally:
        CONF.clear_override("reclaim_instance_interval")


def _resize(walk: Walk, instance) -> None:
    context = nova_context.get_admin_context()
    try:
        objects.Flavor.get_by_flavor_id(context, "2")
    except exception.FlavorNotFound:
        objects.Flavor(
            context, name="m1.small", flavorid="2", memory_mb=1024, vcpus=1,
            root_gb=1, ephemeral_gb=0, swap=0, disabled=False, is_public=True,
        ).create()  # fmt: skip
    moves.MovesAPI(image=walk.images).resize(walk.context, instance, "2")


def _resized(method: str) -> Callable:
    """Confirm or revert, with a finished resize to find (the state
    machine is what may refuse)."""

    def run(walk: Walk, instance) -> None:
        with nova_context.target_cell(walk.context, walk.cell) as cctxt:
            objects.Migration(
                cctxt, instance_uuid=instance.uuid, status="finished",
                source_compute=HOST, dest_compute=HOST, migration_type="resize",
            ).create()  # fmt: skip
        getattr(moves.MovesAPI(image=walk.images), method)(walk.context, instance)

    return run


def _interfaces(method: str, **kwargs) -> Callable:
    def run(walk: Walk, instance) -> None:
        api = interfaces.InterfacesAPI(image=walk.images, network=_Ports())
        getattr(api, method)(walk.context, instance, **kwargs)

    return run


def _on_live_migration(method: str, *args) -> Callable:
    """Force-complete or abort, with a running live migration to find
    (the state machine is what may refuse)."""

    def run(walk: Walk, instance) -> None:
        with nova_context.target_cell(walk.context, walk.cell) as cctxt:
            migration = objects.Migration(
                cctxt, instance_uuid=instance.uuid, status="running",
                source_compute=HOST, dest_compute="other",
                migration_type="live-migration",
            )  # fmt: skip
            migration.create()
        api = moves.MovesAPI(image=walk.images)
        getattr(api, method)(walk.context, instance, migration.id, *args)

    return run


def _evacuate(walk: Walk, instance) -> None:
    """Evacuate, the server's host forced down (its compute being up is
    checked after the state, as upstream does)."""
    with nova_context.target_cell(walk.context, walk.cell) as cctxt:
        service = objects.Service.get_by_compute_host(cctxt, HOST)
        if not service.forced_down:
            service.forced_down = True
            service.save()
    evacuate.EvacuateAPI(image=walk.images).evacuate(
        walk.context, instance, None, on_shared_storage=False, admin_password="pw"
    )


# How each row is started through the compute API.
RUNNERS: dict[str, Callable] = {
    "DELETE": _run(delete.DeleteAPI, "delete"),
    "FORCE_DELETE": _run(delete.DeleteAPI, "force_delete"),
    "SOFT_DELETE": _soft_delete,
    "RESTORE": _run(delete.DeleteAPI, "restore"),
    "STOP": _run(power.PowerAPI, "stop"),
    "START": _run(power.PowerAPI, "start"),
    "REBOOT_SOFT": _run(power.PowerAPI, "reboot", "SOFT"),
    "REBOOT_HARD": _run(power.PowerAPI, "reboot", "HARD"),
    "PAUSE": _run(power.PowerAPI, "pause"),
    "UNPAUSE": _run(power.PowerAPI, "unpause"),
    "SUSPEND": _run(power.PowerAPI, "suspend"),
    "RESUME": _run(power.PowerAPI, "resume"),
    "CHANGE_PASSWORD": _run(guest.GuestAPI, "set_admin_password", "secret-pw"),
    "TRIGGER_CRASH_DUMP": _run(guest.GuestAPI, "trigger_crash_dump"),
    "GET_CONSOLE_OUTPUT": _run(guest.GuestAPI, "get_console_output"),
    "GET_DIAGNOSTICS": _run(
        guest.GuestAPI, "get_diagnostics", diagnostics_policies.BASE_POLICY_NAME
    ),
    "LOCK": _run(servers.ServersAPI, "lock"),
    "UNLOCK": _run(servers.ServersAPI, "unlock"),
    "RESET_STATE": _run(servers.ServersAPI, "reset_state", vm_states.ACTIVE),
    "UPDATE_METADATA": _tags("update_instance_metadata", {"k": "v"}, False),
    "DELETE_METADATA": _delete_metadata,
    "UPDATE_TAGS": _tags("replace_tags", ["t"]),
    "UPDATE_TAG": _tags("add_tag", "t"),
    "DELETE_TAG": _delete_tag,
    "DELETE_TAGS": _tags("delete_tags"),
    "CREATE_IMAGE": _run(images.ImagesAPI, "snapshot", "snap", {}),
    "BACKUP": _run(images.ImagesAPI, "backup", "bak", "daily", 1, {}),
    "SHELVE": _run(images.ImagesAPI, "shelve"),
    "SHELVE_OFFLOAD": _run(images.ImagesAPI, "shelve_offload"),
    "UNSHELVE": _run(images.ImagesAPI, "unshelve"),
    "REBUILD": _run(rebuild.RebuildAPI, "rebuild", IMAGE_ID, None),
    "RESCUE": _run(rescue.RescueAPI, "rescue"),
    "UNRESCUE": _run(rescue.RescueAPI, "unrescue"),
    "RESIZE": _resize,
    "MIGRATE": _run(moves.MovesAPI, "migrate"),
    "CONFIRM_RESIZE": _resized("confirm_resize"),
    "REVERT_RESIZE": _resized("revert_resize"),
    "LIVE_MIGRATE": _run(moves.MovesAPI, "live_migrate", None, False),
    "EVACUATE": _evacuate,
    "LIVE_MIGRATION_FORCE_COMPLETE": _on_live_migration(
        "live_migration_force_complete"
    ),
    "LIVE_MIGRATION_ABORT": _on_live_migration("live_migration_abort", False),
    "ATTACH_INTERFACE": _interfaces("attach_interface", port_id=PORT_ID),
    "DETACH_INTERFACE": _interfaces("detach_interface", port_id=PORT_ID),
}
# Rows no API request starts: the build is started by create (its first
# task state is checked in the create tests) and ended by the compute. The
# volume rows are started by requests, but only with a block storage
# service: they are walked against real Cinder in
# tests/integration/test_cinder_volumes.py.
NOT_STARTED_BY_A_REQUEST = {"BUILD", "ATTACH_VOLUME", "DETACH_VOLUME"}


def test_every_row_is_walked():
    assert set(RUNNERS) | NOT_STARTED_BY_A_REQUEST == set(machine.TRANSITIONS)


def test_every_task_state_an_action_runs_in_has_a_restart_rule():
    running = machine.task_states_of(machine.TRANSITIONS.values())
    assert running - set(machine.ON_RESTART) == set()


@pytest.fixture
def walk(nova_conf, flavor, monkeypatch):  # noqa: F811 - fixture arguments
    recorder = _Recorder()
    monkeypatch.setattr(
        compute_base.FlowAPI, "_compute_rpcapi", staticmethod(lambda: recorder)
    )
    monkeypatch.setattr(
        compute_base.FlowAPI, "_compute_task_api", staticmethod(lambda: recorder)
    )
    # The owner, as an admin: every rule allows it, so only states refuse.
    context = nova_context.RequestContext(
        user_id="demo",
        project_id="demo",
        roles=["admin", "member", "reader"],
        is_admin=True,
        overwrite=False,
    )
    cell = nova_conf["cells"]["cell1"]
    with nova_context.target_cell(context, cell) as cctxt:
        objects.Service(
            cctxt, host=HOST, binary="nova-compute", topic="compute"
        ).create()
    return Walk(context=context, cell=cell, images=_Images())


def _refused_by(transition: machine.Transition, vm_state, task_state, name: str):
    """The 409 the walk expects, or None where the row allows the start."""
    if name == "SOFT_DELETE" and vm_state == vm_states.SOFT_DELETED:
        # Deleting a soft-deleted server deletes it for good instead.
        return None
    if transition.allows(vm_state, task_state):
        return None
    return transition.refusal


@pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)
@pytest.mark.parametrize("name", sorted(RUNNERS))
def test_row(walk, name):
    transition = machine.TRANSITIONS[name]
    run = RUNNERS[name]
    instance, gone = walk.new_server(), False
    for vm_state in ALL_VM_STATES:
        for task_state in START_TASK_STATES:
            if gone:
                instance, gone = walk.new_server(), False
            walk.set_state(instance, vm_state, task_state)
            refusal = _refused_by(transition, vm_state, task_state, name)
            where = f"{name} from ({vm_state}, {task_state})"
            if refusal is not None:
                with pytest.raises(refusal) as caught:
                    run(walk, instance)
                assert (transition.method or transition.action) in str(caught.value), (
                    where
                )
                assert walk.read(instance) == (vm_state, task_state, False), where
                continue
            run(walk, instance)
            vm_after, task_after, deleted = walk.read(instance)
            if deleted or task_after == task_states.DELETING:
                assert transition.task_state in (
                    task_states.DELETING,
                    task_states.SOFT_DELETING,
                    None,
                ), where
                gone = True
            elif name == "RESET_STATE":
                assert (vm_after, task_after) == (vm_states.ACTIVE, None), where
            elif transition.task_state is not None:
                assert task_after == transition.task_state, where
            else:
                assert task_after == task_state, where
