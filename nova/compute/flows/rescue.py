"""Rescue on this host: boot the guest from a rescue image with its own
disk attached second, back again, and the periodic unrescue of instances
rescued longer than ``[DEFAULT] rescue_timeout``."""

from __future__ import annotations

from oslo_log import log as logging

import nova.conf
from nova import exception, objects
from nova.compute.flows import base
from nova.notifications.payloads import instance as payloads
from nova.objects import base as objects_base
from nova.states import machine, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class RescueFlow(base.Flow):
    """rescue_instance and unrescue_instance."""

    def rescue_instance(
        self,
        context,
        instance,
        rescue_password=None,
        rescue_image_ref=None,
        clean_shutdown: bool = True,
    ) -> None:
        """Boot the guest from the rescue image (the instance's own when
        none is named) with its root disk attached second: RESCUED.

        The rescue clock of ``[DEFAULT] rescue_timeout`` starts now (upstream
        keeps it in ``launched_at``).
        """
        image_ref = rescue_image_ref or instance.image_ref
        with self.action(
            context,
            instance,
            "rescue_instance",
            machine.RESCUE,
            notify="rescue",
            payload_class=payloads.InstanceActionRescuePayload,
            rescue_image_ref=image_ref,
        ):
            self.power_off_for(instance, clean_shutdown)
            self.driver.rescue(
                context,
                instance,
                [],
                objects.ImageMeta.from_dict({"id": image_ref}),
                rescue_password,
            )
            instance.launched_at = objects_base.utcnow()
            self.finish(instance, machine.RESCUE)

    def unrescue_instance(self, context, instance) -> None:
        """Boot the guest from its own disk again: ACTIVE."""
        with self.action(
            context, instance, "unrescue_instance", machine.UNRESCUE, notify="unrescue"
        ):
            self.driver.unrescue(context, instance)
            self.finish(instance, machine.UNRESCUE)

    def poll_rescued_instances(self, context) -> None:
        """Unrescue the instances rescued longer than ``[DEFAULT]
        rescue_timeout`` ago, as their users would."""
        timeout = CONF.rescue_timeout
        if timeout <= 0:
            return
        now = objects_base.utcnow()
        for instance in self.instances_of_host(context):
            if (
                instance.vm_state != vm_states.RESCUED
                or instance.task_state is not None
                or instance.launched_at is None
                or (now - instance.launched_at.replace(tzinfo=None)).total_seconds()
                < timeout
            ):
                continue
            LOG.info(
                "Unrescuing %s: rescued for more than %d s", instance.uuid, timeout
            )
            instance.task_state = machine.UNRESCUE.task_state
            try:
                instance.save(expected_task_state=[None])
            except (exception.InstanceNotFound, exception.InstanceInvalidState):
                continue
            objects.InstanceAction.action_start(
                context, instance.uuid, machine.UNRESCUE.action, want_result=False
            )
            self.unrescue_instance(context, instance)
