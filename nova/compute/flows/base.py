"""What the flows of one nova-compute share: its host, virt driver and
resource tracker, the per-instance locks, and the steps every action ends
with (the state machine's end states, a fault when it fails, giving back a
guest's resources).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import threading

from oslo_log import log as logging

import nova.conf
from nova import exception, objects, placement
from nova.compute import utils as compute_utils
from nova.compute.instance_events import InstanceEvents
from nova.compute.resource_tracker import ResourceTracker
from nova.network import api as network_api
from nova.notifications import instance as instance_notifications
from nova.states import machine, power_state
from nova.virt import driver as virt_driver

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class InstanceLocks:
    """One lock per key (an instance or server group uuid): a build and a
    delete of the same instance never interleave on this host."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = collections.defaultdict(threading.Lock)

    def __call__(self, uuid: str) -> threading.Lock:
        with self._guard:
            return self._locks[uuid]

    def release(self, uuid: str) -> None:
        with self._guard:
            self._locks.pop(uuid, None)


@dataclasses.dataclass
class ComputeHost:
    """This nova-compute's host and what acts on it."""

    host: str
    driver: virt_driver.ComputeDriver
    rt: ResourceTracker
    instance_lock: InstanceLocks = dataclasses.field(default_factory=InstanceLocks)
    network_api: network_api.NetworkAPI = dataclasses.field(
        default_factory=network_api.get_network_api
    )
    # Events other services send about this host's instances, and who
    # waits for them.
    instance_events: InstanceEvents = dataclasses.field(default_factory=InstanceEvents)


class Flow:
    """Base of the compute manager's collaborators, one per flow."""

    def __init__(self, compute: ComputeHost) -> None:
        self.compute = compute

    @property
    def host(self) -> str:
        return self.compute.host

    @property
    def driver(self) -> virt_driver.ComputeDriver:
        return self.compute.driver

    # -- running an action ----------------------------------------------------

    @contextlib.contextmanager
    def action(
        self,
        context,
        instance,
        event: str,
        transition: machine.Transition,
        expected=None,
        notify: str | None = None,
        **notify_fields,
    ):
        """Run one action on the instance alone, recorded as the
        ``compute_<event>`` event of its instance action and, with
        ``notify``, announced as ``instance.<notify>.start/end/error``
        (``notify_fields`` for the payload). A failure leaves a
        fault, clears the task (if still one of ``expected``, by default any
        the action runs in) and leaves the row's failure state, so the user
        can try again."""
        notice = (
            instance_notifications.action(
                context, instance, self.host, notify, **notify_fields
            )
            if notify
            else contextlib.nullcontext()
        )
        with self.compute.instance_lock(instance.uuid):
            try:
                with (
                    compute_utils.EventReporter(
                        context, f"compute_{event}", self.host, instance.uuid
                    ),
                    notice,
                ):
                    yield
            except Exception as exc:  # a cast has no caller to tell
                LOG.exception("%s of instance %s failed", event, instance.uuid)
                instance_notifications.compute_exception(context, self.host, exc)
                try:
                    compute_utils.add_instance_fault_from_exc(
                        context, instance, exc, self.host
                    )
                    if transition.failure:
                        instance.vm_state = transition.failure
                    instance.task_state = None
                    instance.save(
                        expected_task_state=list(expected or transition.running)
                    )
                except (exception.InstanceNotFound, exception.InstanceInvalidState):
                    LOG.info("Instance %s changed during its %s", instance.uuid, event)

    def finish(self, instance, transition: machine.Transition, expected=None) -> None:
        """End the action as the state machine says: the guest's power
        state, the row's end state, no task. ``expected`` narrows the task
        states it may end from (default: any it runs in)."""
        old_vm_state, old_task_state = instance.vm_state, instance.task_state
        instance.power_state = self.current_power_state(instance)
        instance.vm_state = transition.end_state(instance.vm_state)
        instance.task_state = None
        instance.save(expected_task_state=list(expected or transition.running))
        LOG.info("Instance %s is %s", instance.uuid, instance.vm_state)
        instance_notifications.notify_update(
            instance, self.host, old_vm_state, old_task_state
        )

    def end_task_with_fault(self, context, instance, exc, vm_state: str) -> None:
        """Record ``exc`` as the instance's fault, end its task in
        ``vm_state``; an instance deleted meanwhile is let go."""
        try:
            compute_utils.add_instance_fault_from_exc(context, instance, exc, self.host)
            instance.vm_state = vm_state
            instance.task_state = None
            instance.save()
        except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
            LOG.info("Instance %s was deleted meanwhile", instance.uuid)

    # -- the guest and its resources ------------------------------------------

    def current_power_state(self, instance) -> int:
        try:
            return self.driver.get_info(instance).state
        except exception.InstanceNotFound:
            return power_state.NOSTATE

    def clean_up_guest(self, context, instance) -> None:
        """Destroy the guest and give its ports and allocations back."""
        try:
            self.driver.destroy(context, instance)
        except Exception:  # the instance's outcome is recorded anyway
            LOG.exception("Could not destroy the guest of %s", instance.uuid)
        self.deallocate_network(context, instance)
        self.remove_allocations(context, instance)

    def deallocate_network(self, context, instance) -> None:
        try:
            self.compute.network_api.deallocate_for_instance(context, instance)
        except Exception:  # the instance's outcome is recorded anyway
            LOG.exception("Could not give back the ports of %s", instance.uuid)

    @staticmethod
    def remove_allocations(context, instance) -> None:
        try:
            placement.client().remove_allocations(instance.uuid, context=context)
        except Exception:  # left for `nova-manage placement audit`
            LOG.exception("Could not remove the allocations of %s", instance.uuid)

    @staticmethod
    def allocations(context, instance, selection=None) -> dict:
        """What the scheduler claimed for the instance: the selection says,
        saving Placement a request per build; else Placement does."""
        if selection is not None and selection.allocation_request:
            return json.loads(selection.allocation_request)["allocations"]
        return (
            placement.client()
            .get_allocations_for_consumer(instance.uuid, context=context)
            .allocations
        )

    def power_off_for(self, instance, clean_shutdown: bool) -> None:
        """Power the guest off before its disk is taken (by ACPI first
        when ``clean_shutdown``); a guest that is gone is off."""
        try:
            self.driver.power_off(instance, *shutdown_timeouts(clean_shutdown))
        except exception.InstanceNotFound:
            LOG.info("Instance %s has no guest to power off", instance.uuid)

    def instances_of_host(self, context):
        return objects.InstanceList.get_by_host(context, self.host)


def shutdown_timeouts(clean_shutdown: bool) -> tuple[int, int]:
    """The driver's power_off (timeout, retry_interval): by ACPI first
    when ``clean_shutdown``, else at once."""
    if not clean_shutdown:
        return 0, 0
    return CONF.shutdown_timeout, CONF.compute.shutdown_retry_interval
