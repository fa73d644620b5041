"""Keeping instances true to their guests: the power state the hypervisor
reports, by lifecycle event and by the periodic sync."""

from __future__ import annotations

import concurrent.futures

from oslo_log import log as logging

from nova import context as nova_context
from nova import exception, objects
from nova.compute.flows import base
from nova.states import power_state, vm_states
from nova.virt import driver as virt_driver

LOG = logging.getLogger(__name__)

# A guest in these power states is off.
_OFF = (power_state.SHUTDOWN, power_state.CRASHED, power_state.NOSTATE)


class PowerSyncFlow(base.Flow):
    """Lifecycle events and sync_power_states."""

    def __init__(self, compute: base.ComputeHost) -> None:
        super().__init__(compute)
        # Lifecycle events are handled off libvirt's event thread, in order.
        self._events = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="lifecycle"
        )

    def shutdown(self) -> None:
        self._events.shutdown(wait=False, cancel_futures=True)

    def handle_lifecycle_event(self, event: virt_driver.LifecycleEvent) -> None:
        self._events.submit(self._sync_from_event, event)

    def _sync_from_event(self, event: virt_driver.LifecycleEvent) -> None:
        context = nova_context.get_admin_context()
        try:
            instance = objects.Instance.get_by_uuid(context, event.uuid)
        except exception.InstanceNotFound:
            return
        if instance.host == self.host:
            self.sync_instance_power_state(context, instance)

    def sync_power_states(self, context) -> None:
        """Make every instance of this host agree with its guest."""
        for instance in self.instances_of_host(context):
            try:
                self.sync_instance_power_state(context, instance)
            except Exception:  # one instance must not stop the others
                LOG.exception("Could not sync the power state of %s", instance.uuid)

    def sync_instance_power_state(self, context, instance) -> None:
        """Record the guest's power state and act on what it means: a guest
        that stopped by itself makes its instance STOPPED, a guest running
        while its instance is STOPPED is powered off. Instances with a task
        running are left to that task (its end records the state)."""
        with self.compute.instance_lock(instance.uuid):
            try:
                instance.refresh()
            except exception.InstanceNotFound:
                return
            if (
                instance.task_state is not None
                or instance.host != self.host
                or instance.vm_state in (vm_states.DELETED, vm_states.BUILDING)
            ):
                return
            vm_power_state = self.current_power_state(instance)
            off = vm_power_state in _OFF
            vm_state = instance.vm_state
            if vm_state in (vm_states.ACTIVE, vm_states.PAUSED) and off:
                LOG.warning(
                    "Instance %s is %s but its guest is off; it is now stopped",
                    instance.uuid,
                    vm_state,
                )
                instance.vm_state = vm_states.STOPPED
            elif vm_state == vm_states.STOPPED and not off:
                LOG.warning(
                    "Instance %s is stopped but its guest runs; powering it off",
                    instance.uuid,
                )
                self.driver.power_off(instance)
                vm_power_state = self.current_power_state(instance)
            if instance.vm_state != vm_state or instance.power_state != vm_power_state:
                instance.power_state = vm_power_state
                try:
                    instance.save(expected_task_state=[None])
                except (exception.InstanceNotFound, exception.InstanceInvalidState):
                    LOG.info("Instance %s changed while syncing", instance.uuid)
