"""Asking a server's guest: its console log, diagnostics, a new admin
password, a crash dump."""

from __future__ import annotations

import oslo_messaging

from nova import exception
from nova.compute.api import base
from nova.policies import admin_password as admin_password_policies
from nova.policies import console_output as console_output_policies
from nova.policies import servers as server_policies
from nova.states import machine


class GuestAPI(base.FlowAPI):
    """Requests that reach into the guest through its host."""

    def get_console_output(self, context, instance, tail_length=None) -> str:
        """The server's console log, from its host."""
        cctxt, cell_instance = self.on_host(
            context,
            instance,
            machine.GET_CONSOLE_OUTPUT.action,
            console_output_policies.RULE,
        )
        return self._compute_rpcapi().get_console_output(
            cctxt, cell_instance, tail_length=tail_length
        )

    def _call_host(self, cell_instance, method: str, **kwargs):
        """Ask the instance's host over RPC, a host that does not answer
        being unavailable (503) rather than an error of ours."""
        try:
            return getattr(self._compute_rpcapi(), method)(
                cell_instance._context, cell_instance, **kwargs
            )
        except oslo_messaging.MessagingTimeout as exc:
            raise exception.ComputeServiceUnavailable(host=cell_instance.host) from exc

    def get_diagnostics(self, context, instance, rule: str) -> dict:
        """The driver's own diagnostics of the guest (before 2.48)."""
        _, cell_instance = self.on_host(
            context, instance, machine.GET_DIAGNOSTICS.action, rule
        )
        return self._call_host(cell_instance, "get_diagnostics")

    def get_instance_diagnostics(self, context, instance, rule: str) -> dict:
        """Diagnostics of the guest in the standard shape (2.48+)."""
        _, cell_instance = self.on_host(
            context, instance, "get_instance_diagnostics", rule
        )
        return self._call_host(cell_instance, "get_instance_diagnostics")

    def trigger_crash_dump(self, context, instance) -> None:
        """Have the guest's kernel dump its memory (an NMI on libvirt)."""
        cctxt, cell_instance = self.start_action(
            context,
            instance,
            machine.TRIGGER_CRASH_DUMP,
            server_policies.SERVERS % "trigger_crash_dump",
        )
        self._compute_rpcapi().trigger_crash_dump(cctxt, cell_instance)

    def set_admin_password(self, context, instance, password: str) -> None:
        """Set the guest's administrator password through its host, waiting
        for the answer (the guest agent may refuse)."""
        _, cell_instance = self.start_action(
            context,
            instance,
            machine.CHANGE_PASSWORD,
            admin_password_policies.BASE_POLICY_NAME,
        )
        self._call_host(cell_instance, "set_admin_password", new_pass=password)
