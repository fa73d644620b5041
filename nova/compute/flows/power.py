"""Power actions on this host's guests: stop, start, reboot, pause,
unpause, suspend, resume; each ends as its state machine row says."""

from __future__ import annotations

from nova.compute.flows import base
from nova.compute.shelved_images import forget_shelved_image
from nova.states import machine

# A hard reboot may take over a soft one that is still running (and a
# restarted compute redoes a soft reboot as a hard one): either ends both.
_REBOOT_TASK_STATES = machine.task_states_of((machine.REBOOT_SOFT, machine.REBOOT_HARD))


class PowerFlow(base.Flow):
    """The guest's power button."""

    def stop_instance(self, context, instance, clean_shutdown: bool = True) -> None:
        """Power the guest off, by ACPI first when ``clean_shutdown``."""
        with self.action(
            context, instance, "stop_instance", machine.STOP, notify="power_off"
        ):
            self.driver.power_off(instance, *base.shutdown_timeouts(clean_shutdown))
            self.finish(instance, machine.STOP)

    def start_instance(self, context, instance) -> None:
        with self.action(
            context, instance, "start_instance", machine.START, notify="power_on"
        ):
            self.driver.power_on(context, instance, [])
            # Unshelving a server not yet offloaded starts it.
            forget_shelved_image(context, instance)
            self.finish(instance, machine.START)

    def reboot_instance(self, context, instance, reboot_type: str = "SOFT") -> None:
        """Reboot SOFT (ACPI, then hard if the guest ignores it) or HARD."""
        transition = (
            machine.REBOOT_HARD if reboot_type == "HARD" else machine.REBOOT_SOFT
        )
        with self.action(
            context,
            instance,
            "reboot_instance",
            transition,
            _REBOOT_TASK_STATES,
            notify="reboot",
        ):
            self.driver.reboot(context, instance, [], reboot_type)
            self.finish(instance, transition, expected=_REBOOT_TASK_STATES)

    def pause_instance(self, context, instance) -> None:
        with self.action(
            context, instance, "pause_instance", machine.PAUSE, notify="pause"
        ):
            self.driver.pause(instance)
            self.finish(instance, machine.PAUSE)

    def unpause_instance(self, context, instance) -> None:
        with self.action(
            context, instance, "unpause_instance", machine.UNPAUSE, notify="unpause"
        ):
            self.driver.unpause(instance)
            self.finish(instance, machine.UNPAUSE)

    def suspend_instance(self, context, instance) -> None:
        with self.action(
            context, instance, "suspend_instance", machine.SUSPEND, notify="suspend"
        ):
            self.driver.suspend(context, instance)
            self.finish(instance, machine.SUSPEND)

    def resume_instance(self, context, instance) -> None:
        with self.action(
            context, instance, "resume_instance", machine.RESUME, notify="resume"
        ):
            self.driver.resume(context, instance, [])
            self.finish(instance, machine.RESUME)
