"""Power actions: stop, start, reboot, pause, unpause, suspend, resume.

Each checks the state machine's row, claims the task and casts to the
server's host, whose compute manager ends the task in the row's end state.
"""

from __future__ import annotations

from nova.compute.api import base
from nova.policies import pause_server as pause_policies
from nova.policies import servers as server_policies
from nova.policies import suspend_server as suspend_policies
from nova.states import machine


class PowerAPI(base.FlowAPI):
    """What a server's power button can do."""

    def stop(self, context, instance, clean_shutdown: bool = True) -> None:
        """Power off an ACTIVE or ERROR server (``os-stop``)."""
        cctxt, cell_instance = self.start_action(
            context, instance, machine.STOP, server_policies.SERVERS % "stop"
        )
        cell_instance.progress = 0
        self._compute_rpcapi().stop_instance(cctxt, cell_instance, clean_shutdown)

    def start(self, context, instance) -> None:
        """Power on a STOPPED server (``os-start``)."""
        cctxt, cell_instance = self.start_action(
            context, instance, machine.START, server_policies.SERVERS % "start"
        )
        self._compute_rpcapi().start_instance(cctxt, cell_instance)

    def reboot(self, context, instance, reboot_type: str) -> None:
        """Reboot: SOFT only an ACTIVE server with no task, HARD also a
        stopped, paused, suspended or failed one, or one stuck in a task."""
        transition = (
            machine.REBOOT_HARD if reboot_type == "HARD" else machine.REBOOT_SOFT
        )
        cctxt, cell_instance = self.start_action(
            context, instance, transition, server_policies.SERVERS % "reboot"
        )
        self._compute_rpcapi().reboot_instance(
            cctxt, cell_instance, reboot_type=reboot_type
        )

    def pause(self, context, instance) -> None:
        cctxt, cell_instance = self.start_action(
            context, instance, machine.PAUSE, pause_policies.PAUSE
        )
        self._compute_rpcapi().pause_instance(cctxt, cell_instance)

    def unpause(self, context, instance) -> None:
        cctxt, cell_instance = self.start_action(
            context, instance, machine.UNPAUSE, pause_policies.UNPAUSE
        )
        self._compute_rpcapi().unpause_instance(cctxt, cell_instance)

    def suspend(self, context, instance) -> None:
        cctxt, cell_instance = self.start_action(
            context, instance, machine.SUSPEND, suspend_policies.SUSPEND
        )
        self._compute_rpcapi().suspend_instance(cctxt, cell_instance)

    def resume(self, context, instance) -> None:
        cctxt, cell_instance = self.start_action(
            context, instance, machine.RESUME, suspend_policies.RESUME
        )
        self._compute_rpcapi().resume_instance(cctxt, cell_instance)
