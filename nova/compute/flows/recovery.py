"""Settling, when nova-compute starts, the instances a previous run of it
left in the middle of an action: what happens to each is the state
machine's ``ON_RESTART`` rule for the task state it was left in."""

from __future__ import annotations

from oslo_log import log as logging

import nova.conf
from nova import exception
from nova.compute.flows import base
from nova.compute.flows.build import BuildFlow
from nova.compute.flows.delete import DeleteFlow
from nova.compute.flows.images import ImagesFlow
from nova.compute.flows.moves import MovesFlow
from nova.compute.flows.power import PowerFlow
from nova.compute.flows.power_sync import PowerSyncFlow
from nova.states import machine, power_state, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class RecoveryFlow(base.Flow):
    """upstream's init_host / init_instance."""

    def __init__(
        self,
        compute: base.ComputeHost,
        *,
        build: BuildFlow,
        delete: DeleteFlow,
        images: ImagesFlow,
        moves: MovesFlow,
        power: PowerFlow,
        power_sync: PowerSyncFlow,
    ) -> None:
        super().__init__(compute)
        self.build = build
        self.delete = delete
        self.images = images
        self.moves = moves
        self.power = power
        self.power_sync = power_sync

    def recover_instances(self, context) -> None:
        """Settle every instance of this host."""
        for instance in self.instances_of_host(context):
            self.recover_instance(context, instance)

    def recover_instance(self, context, instance) -> None:
        """A delete in progress is finished; a build cannot be resumed and
        ends in ERROR; any other task is redone, cleared or failed as its
        ``ON_RESTART`` rule says, then the power state is synced."""
        rule = machine.ON_RESTART.get(instance.task_state)
        if rule is machine.OnRestart.FINISH:
            LOG.info("Finishing the interrupted delete of %s", instance.uuid)
            self.delete.delete_instance(context, instance)
            return
        if instance.vm_state == vm_states.BUILDING:
            LOG.warning(
                "Instance %s was building when %s stopped", instance.uuid, self.host
            )
            self.build.fail_build(
                context,
                instance,
                exception.BuildAbortException(
                    instance_uuid=instance.uuid,
                    reason="the compute service restarted during the build",
                ),
            )
            return
        if instance.task_state is None:
            self._resume_guest(context, instance)
        elif rule is machine.OnRestart.REDO:
            self._redo(context, instance)
        elif rule is machine.OnRestart.CLEAR:
            task = instance.task_state
            LOG.info("Clearing interrupted task %s of %s", task, instance.uuid)
            instance.task_state = None
            instance.save(expected_task_state=task)
        elif rule is machine.OnRestart.ERROR:
            self._fail(context, instance)
        else:
            LOG.warning(
                "Instance %s is in task %s, which no action of this service "
                "runs in; left as it is",
                instance.uuid,
                instance.task_state,
            )
        self.power_sync.sync_instance_power_state(context, instance)

    def _redo(self, context, instance) -> None:
        task = instance.task_state
        if task == task_states.POWERING_OFF:
            self.power.stop_instance(context, instance, clean_shutdown=False)
        elif task == task_states.POWERING_ON:
            self.power.start_instance(context, instance)
        else:
            self.power.reboot_instance(context, instance, reboot_type="HARD")

    def _fail(self, context, instance) -> None:
        """The guest is half made: the running action's failure state, with
        a fault saying why."""
        transition = machine.running_transition(instance)
        action = transition.action if transition else instance.task_state
        exc = exception.NovaException(
            f"the compute service restarted during the {action}"
        )
        if transition is machine.UNSHELVE:
            self.images.fail_unshelve(context, instance, exc)
            return
        if transition in machine.MOVES:
            self.moves.fail_interrupted(context, instance, exc)
            return
        failure = (transition and transition.failure) or vm_states.ERROR
        self.end_task_with_fault(context, instance, exc, failure)

    def _resume_guest(self, context, instance) -> None:
        """``resume_guests_state_on_host_boot``: an ACTIVE instance whose
        guest is not running (the host rebooted) is started again."""
        if (
            instance.vm_state == vm_states.ACTIVE
            and CONF.resume_guests_state_on_host_boot
            and self.current_power_state(instance) != power_state.RUNNING
        ):
            LOG.info(
                "Starting %s again, as it was before the host rebooted", instance.uuid
            )
            self.driver.power_on(context, instance, [])
