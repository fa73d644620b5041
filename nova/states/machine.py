"""The instance state machine, as one table.

Every action the Compute API accepts on a server has one row here: the
vm_states and task_states it may start from, the task_state it claims while
it runs (and the further task states it passes through), the vm_state it
ends in when it succeeds and when it fails, and what a restarted
nova-compute does with an instance a dead predecessor left in the middle of
it. The API's 409s (:func:`check`) and the compute manager's finishing steps
both read the row, so the two can never disagree.

A row's ``action`` is the name users see in ``os-instance-actions`` and,
unless the row names another, in the 409's message.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable

from nova import exception
from nova.states import task_states, vm_states


class Any_:
    """Any state at all (the action does not care)."""

    def __contains__(self, state: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANY"


ANY = Any_()
NO_TASK: frozenset[str | None] = frozenset({None})


class OnRestart(enum.Enum):
    """What nova-compute does at start with an instance its predecessor
    left in the middle of an action."""

    #: Do the action again (a reboot is redone as a hard one).
    REDO = "redo"
    #: The guest was not harmed: clear the task and sync the power state.
    CLEAR = "clear"
    #: The guest is half made: ERROR, with a fault saying why.
    ERROR = "error"
    #: Finish it (a delete).
    FINISH = "finish"


@dataclasses.dataclass(frozen=True)
class Transition:
    """One action on a server and the states it moves the server through."""

    #: The instance action's name, as users see it.
    action: str
    #: vm_states the action may start from.
    vm_states: frozenset[str] | Any_
    #: task_states it may start from (``NO_TASK``: none may run).
    task_states: frozenset[str | None] | Any_ = NO_TASK
    #: The task_state the API claims for it; None when it claims none.
    task_state: str | None = None
    #: Further task states the host moves it through, in order.
    steps: tuple[str, ...] = ()
    #: The vm_state it ends in; None leaves the vm_state as it was.
    success: str | None = None
    #: The vm_state a failure leaves; None leaves the vm_state as it was.
    failure: str | None = None
    #: A server that was STOPPED is STOPPED again at the end.
    keeps_stopped: bool = False
    #: What the 409 calls the action, where that is not its action's name.
    method: str | None = None
    #: The 409 raised outside the allowed states.
    refusal: (
        type[exception.InstanceInvalidState]
        | type[exception.InstanceInvalidStateForAction]
    ) = exception.InstanceInvalidState

    @property
    def running(self) -> tuple[str, ...]:
        """Every task state the instance may be in while this runs."""
        return ((self.task_state,) if self.task_state else ()) + self.steps

    def allows(self, vm_state: str | None, task_state: str | None) -> bool:
        return vm_state in self.vm_states and task_state in self.task_states

    def end_state(self, vm_state_before: str) -> str:
        """The vm_state a success leaves, from the one the action began in."""
        if self.keeps_stopped and vm_state_before == vm_states.STOPPED:
            return vm_states.STOPPED
        return self.success or vm_state_before


def _states(*states: str | None) -> frozenset:
    return frozenset(states)


# States in which a server's disk may be saved as an image (and shelved).
_IMAGEABLE = _states(
    vm_states.ACTIVE, vm_states.STOPPED, vm_states.PAUSED, vm_states.SUSPENDED
)
# States in which a server's metadata and tags may change.
_EDITABLE = _states(
    vm_states.ACTIVE, vm_states.PAUSED, vm_states.SUSPENDED, vm_states.STOPPED
)
_IMAGE_STEPS = (
    task_states.IMAGE_SNAPSHOT,
    task_states.IMAGE_PENDING_UPLOAD,
    task_states.IMAGE_UPLOADING,
)

# -- building and deleting ----------------------------------------------------

BUILD = Transition(
    action="create",
    vm_states=_states(vm_states.BUILDING),
    task_states=_states(task_states.SCHEDULING, None),
    task_state=task_states.SCHEDULING,
    steps=(task_states.SPAWNING,),
    success=vm_states.ACTIVE,
    failure=vm_states.ERROR,
)
DELETE = Transition(
    action="delete",
    vm_states=ANY,
    task_states=ANY,
    task_state=task_states.DELETING,
    success=vm_states.DELETED,
)
# Both are recorded as deletes.
FORCE_DELETE = Transition(action="delete", method="forceDelete", vm_states=ANY)
SOFT_DELETE = Transition(
    action="delete",
    method="soft_delete",
    vm_states=ANY,
    task_state=task_states.SOFT_DELETING,
    success=vm_states.SOFT_DELETED,
)
RESTORE = Transition(
    action="restore",
    vm_states=_states(vm_states.SOFT_DELETED),
    task_state=task_states.RESTORING,
    success=vm_states.ACTIVE,
)

# -- power ----------------------------------------------------------------------

STOP = Transition(
    action="stop",
    vm_states=_states(vm_states.ACTIVE, vm_states.ERROR),
    task_state=task_states.POWERING_OFF,
    success=vm_states.STOPPED,
)
START = Transition(
    action="start",
    vm_states=_states(vm_states.STOPPED),
    task_state=task_states.POWERING_ON,
    success=vm_states.ACTIVE,
)
REBOOT_SOFT = Transition(
    action="reboot",
    vm_states=_states(vm_states.ACTIVE),
    task_state=task_states.REBOOTING,
    success=vm_states.ACTIVE,
)
# A hard reboot may also interrupt a stuck soft reboot or an operation that
# hung in the guest.
REBOOT_HARD = Transition(
    action="reboot",
    vm_states=_states(
        vm_states.ACTIVE,
        vm_states.STOPPED,
        vm_states.PAUSED,
        vm_states.SUSPENDED,
        vm_states.ERROR,
    ),
    task_states=_states(
        None,
        task_states.REBOOTING,
        task_states.REBOOTING_HARD,
        task_states.PAUSING,
        task_states.UNPAUSING,
        task_states.SUSPENDING,
        task_states.RESUMING,
    ),
    task_state=task_states.REBOOTING_HARD,
    success=vm_states.ACTIVE,
)
PAUSE = Transition(
    action="pause",
    vm_states=_states(vm_states.ACTIVE),
    task_state=task_states.PAUSING,
    success=vm_states.PAUSED,
)
UNPAUSE = Transition(
    action="unpause",
    vm_states=_states(vm_states.PAUSED),
    task_state=task_states.UNPAUSING,
    success=vm_states.ACTIVE,
)
SUSPEND = Transition(
    action="suspend",
    vm_states=_states(vm_states.ACTIVE),
    task_state=task_states.SUSPENDING,
    success=vm_states.SUSPENDED,
)
RESUME = Transition(
    action="resume",
    vm_states=_states(vm_states.SUSPENDED),
    task_state=task_states.RESUMING,
    success=vm_states.ACTIVE,
)

# -- guest actions ------------------------------------------------------------

CHANGE_PASSWORD = Transition(
    action="changePassword",
    vm_states=_states(vm_states.ACTIVE),
    task_state=task_states.UPDATING_PASSWORD,
)
TRIGGER_CRASH_DUMP = Transition(
    action="trigger_crash_dump",
    vm_states=_states(
        vm_states.ACTIVE,
        vm_states.PAUSED,
        vm_states.RESCUED,
        vm_states.RESIZED,
        vm_states.ERROR,
    ),
)
# Reading a server's console or diagnostics, locking it and an admin's
# reset of its state do not depend on its state.
GET_CONSOLE_OUTPUT = Transition(
    action="get_console_output", vm_states=ANY, task_states=ANY
)
GET_DIAGNOSTICS = Transition(action="get_diagnostics", vm_states=ANY, task_states=ANY)
LOCK = Transition(action="lock", vm_states=ANY, task_states=ANY)
UNLOCK = Transition(action="unlock", vm_states=ANY, task_states=ANY)
RESET_STATE = Transition(action="resetState", vm_states=ANY, task_states=ANY)

# -- metadata and tags --------------------------------------------------------

UPDATE_METADATA = Transition(
    action="update metadata",
    vm_states=_EDITABLE,
    refusal=exception.InstanceInvalidStateForAction,
)
DELETE_METADATA = Transition(
    action="delete metadata",
    vm_states=_EDITABLE,
    refusal=exception.InstanceInvalidStateForAction,
)
# Tags may change while a task runs.
UPDATE_TAGS = Transition(
    action="update tags",
    vm_states=_EDITABLE,
    task_states=ANY,
    refusal=exception.InstanceInvalidStateForAction,
)
UPDATE_TAG = dataclasses.replace(UPDATE_TAGS, action="update tag")
DELETE_TAG = dataclasses.replace(UPDATE_TAGS, action="delete tag")
DELETE_TAGS = dataclasses.replace(UPDATE_TAGS, action="delete tags")

# -- images, rebuild, rescue, shelve -----------------------------------------

CREATE_IMAGE = Transition(
    action="createImage",
    vm_states=_IMAGEABLE,
    task_state=task_states.IMAGE_SNAPSHOT_PENDING,
    steps=_IMAGE_STEPS,
)
BACKUP = Transition(
    action="createBackup",
    vm_states=_IMAGEABLE,
    task_state=task_states.IMAGE_BACKUP,
    steps=_IMAGE_STEPS,
)
REBUILD = Transition(
    action="rebuild",
    vm_states=_states(vm_states.ACTIVE, vm_states.STOPPED, vm_states.ERROR),
    task_state=task_states.REBUILDING,
    steps=(task_states.REBUILD_BLOCK_DEVICE_MAPPING, task_states.REBUILD_SPAWNING),
    success=vm_states.ACTIVE,
    failure=vm_states.ERROR,
    keeps_stopped=True,
)
RESCUE = Transition(
    action="rescue",
    vm_states=_states(vm_states.ACTIVE, vm_states.STOPPED, vm_states.ERROR),
    task_state=task_states.RESCUING,
    success=vm_states.RESCUED,
)
UNRESCUE = Transition(
    action="unrescue",
    vm_states=_states(vm_states.RESCUED),
    task_state=task_states.UNRESCUING,
    success=vm_states.ACTIVE,
)
SHELVE = Transition(
    action="shelve",
    vm_states=_IMAGEABLE,
    task_state=task_states.SHELVING,
    steps=(
        task_states.SHELVING_IMAGE_PENDING_UPLOAD,
        task_states.SHELVING_IMAGE_UPLOADING,
    ),
    success=vm_states.SHELVED,
)
SHELVE_OFFLOAD = Transition(
    action="shelveOffload",
    vm_states=_states(vm_states.SHELVED),
    task_state=task_states.SHELVING_OFFLOADING,
    success=vm_states.SHELVED_OFFLOADED,
)
# An offloaded server is built again where the scheduler puts it; when that
# fails it stays offloaded, to be unshelved again.
UNSHELVE = Transition(
    action="unshelve",
    vm_states=_states(vm_states.SHELVED, vm_states.SHELVED_OFFLOADED),
    task_state=task_states.UNSHELVING,
    steps=(task_states.SPAWNING,),
    success=vm_states.ACTIVE,
    failure=vm_states.SHELVED_OFFLOADED,
)

# -- interfaces ---------------------------------------------------------------

# A port is hot-plugged into (or out of) a guest that runs, is paused or is
# off; the vm_state stays as it was.
_PLUGGABLE = _states(vm_states.ACTIVE, vm_states.PAUSED, vm_states.STOPPED)
ATTACH_INTERFACE = Transition(
    action="attach_interface",
    vm_states=_PLUGGABLE,
    task_state=task_states.INTERFACE_ATTACHING,
)
DETACH_INTERFACE = Transition(
    action="detach_interface",
    vm_states=_PLUGGABLE,
    task_state=task_states.INTERFACE_DETACHING,
)

# -- volumes ------------------------------------------------------------------

# A volume is attached to (or detached from) a guest on its host while no
# other task runs; none is claimed (two attaches may run at once, each on
# its own device), and the vm_state stays as it was.
_ATTACHABLE = _states(
    vm_states.ACTIVE,
    vm_states.PAUSED,
    vm_states.STOPPED,
    vm_states.RESIZED,
    vm_states.SOFT_DELETED,
)
ATTACH_VOLUME = Transition(action="attach_volume", vm_states=_ATTACHABLE)
DETACH_VOLUME = Transition(action="detach_volume", vm_states=_ATTACHABLE)

# -- moves ----------------------------------------------------------------------

# A resize ends RESIZED on its destination, waiting for the user to confirm
# or revert it; a failure before the guest left its source rolls back.
RESIZE = Transition(
    action="resize",
    vm_states=_states(vm_states.ACTIVE, vm_states.STOPPED),
    task_state=task_states.RESIZE_PREP,
    steps=(
        task_states.RESIZE_MIGRATING,
        task_states.RESIZE_MIGRATED,
        task_states.RESIZE_FINISH,
    ),
    success=vm_states.RESIZED,
    failure=vm_states.ERROR,
)
# A cold migration is a resize to the same flavor, on another host.
MIGRATE = dataclasses.replace(RESIZE, action="migrate")
# Confirming claims no task state (as upstream): the migration's status,
# ``confirming``, is what keeps a second confirm or a revert out.
CONFIRM_RESIZE = Transition(
    action="confirmResize",
    vm_states=_states(vm_states.RESIZED),
    success=vm_states.ACTIVE,
    keeps_stopped=True,
)
REVERT_RESIZE = Transition(
    action="revertResize",
    vm_states=_states(vm_states.RESIZED),
    task_state=task_states.RESIZE_REVERTING,
    success=vm_states.ACTIVE,
    failure=vm_states.ERROR,
    keeps_stopped=True,
)

# A live migration keeps the guest's state; a failure leaves it running
# on its source.
LIVE_MIGRATE = Transition(
    action="live-migration",
    vm_states=_states(vm_states.ACTIVE, vm_states.PAUSED),
    task_state=task_states.MIGRATING,
)

# Rebuilding a server of a dead host on another one; a stopped server ends
# stopped (2.95 stops any).
EVACUATE = dataclasses.replace(REBUILD, action="evacuate")
# Asking a running live migration to finish now, or to stop (no task state
# of their own: the migration's status says what may be asked).
LIVE_MIGRATION_FORCE_COMPLETE = Transition(
    action="live_migration_force_complete",
    vm_states=_states(vm_states.ACTIVE),
    task_states=_states(task_states.MIGRATING),
    method="force_complete",
)
LIVE_MIGRATION_ABORT = Transition(
    action="live_migration_cancel",
    vm_states=ANY,
    task_states=_states(task_states.MIGRATING),
    method="abort live migration",
)

#: The rows whose interruption the moves flow settles.
MOVES = (RESIZE, MIGRATE, REVERT_RESIZE, LIVE_MIGRATE)

#: Every row, by a name for it.
TRANSITIONS: dict[str, Transition] = {
    name: value for name, value in globals().items() if isinstance(value, Transition)
}

#: What a restarted nova-compute does with an instance of its host that a
#: dead predecessor left in each task state. Every task state an action runs
#: in has an entry: nothing is left stuck.
ON_RESTART: dict[str, OnRestart] = {
    # Power actions are done again; a reboot as a hard one.
    task_states.POWERING_OFF: OnRestart.REDO,
    task_states.POWERING_ON: OnRestart.REDO,
    task_states.REBOOTING: OnRestart.REDO,
    task_states.REBOOTING_HARD: OnRestart.REDO,
    # Interrupted before the guest was harmed: the power-state sync that
    # follows records what the guest is doing.
    **dict.fromkeys(
        (
            task_states.PAUSING,
            task_states.UNPAUSING,
            task_states.SUSPENDING,
            task_states.RESUMING,
            task_states.SOFT_DELETING,
            task_states.RESTORING,
            task_states.UPDATING_PASSWORD,
            task_states.IMAGE_SNAPSHOT_PENDING,
            task_states.IMAGE_SNAPSHOT,
            task_states.IMAGE_BACKUP,
            task_states.IMAGE_PENDING_UPLOAD,
            task_states.IMAGE_UPLOADING,
            task_states.RESCUING,
            task_states.UNRESCUING,
            task_states.SHELVING,
            task_states.SHELVING_IMAGE_PENDING_UPLOAD,
            task_states.SHELVING_IMAGE_UPLOADING,
            task_states.SHELVING_OFFLOADING,
            # The network info heal brings the cache to what Neutron has.
            task_states.INTERFACE_ATTACHING,
            task_states.INTERFACE_DETACHING,
            # The old guest is still there until the rebuild destroys it.
            task_states.REBUILDING,
        ),
        OnRestart.CLEAR,
    ),
    # The old guest is gone and the new one was never finished.
    task_states.SCHEDULING: OnRestart.ERROR,
    task_states.SPAWNING: OnRestart.ERROR,
    task_states.REBUILD_BLOCK_DEVICE_MAPPING: OnRestart.ERROR,
    task_states.REBUILD_SPAWNING: OnRestart.ERROR,
    task_states.UNSHELVING: OnRestart.ERROR,
    # A move ends: rolled back while the guest is still on its source,
    # else ERROR where it is (nova.compute.flows.moves decides).
    task_states.RESIZE_PREP: OnRestart.ERROR,
    task_states.RESIZE_MIGRATING: OnRestart.ERROR,
    task_states.RESIZE_MIGRATED: OnRestart.ERROR,
    task_states.RESIZE_FINISH: OnRestart.ERROR,
    task_states.RESIZE_REVERTING: OnRestart.ERROR,
    task_states.MIGRATING: OnRestart.ERROR,
    task_states.DELETING: OnRestart.FINISH,
}


def check(instance, transition: Transition) -> None:
    """:raises InstanceInvalidState: (409, or the row's own ``refusal``)
    the instance's vm_state or task_state does not allow ``transition``."""
    for attr, allowed in (
        ("vm_state", transition.vm_states),
        ("task_state", transition.task_states),
    ):
        value = getattr(instance, attr, None) if attr in instance else None
        if value not in allowed:
            raise transition.refusal(
                instance_uuid=instance.uuid,
                attr=attr,
                state=value,
                method=transition.method or transition.action,
            )


def running_transition(instance) -> Transition | None:
    """The action running on ``instance`` (by its vm_state and task_state);
    None when no task runs."""
    task_state = instance.task_state
    if task_state is None:
        return None
    for transition in TRANSITIONS.values():
        if task_state in transition.running and instance.vm_state in (
            transition.vm_states
        ):
            return transition
    return None


def task_states_of(transitions: Iterable[Transition]) -> frozenset[str]:
    """Every task state ``transitions`` run in."""
    return frozenset(state for t in transitions for state in t.running)
