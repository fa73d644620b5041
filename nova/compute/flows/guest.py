"""Asking this host's guests: console log, consoles, diagnostics, a new
admin password, a crash dump."""

from __future__ import annotations

from oslo_log import log as logging

import nova.conf
from nova import exception
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.notifications import instance as instance_notifications
from nova.states import power_state, task_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class GuestFlow(base.Flow):
    """Requests that reach into a guest."""

    def get_console_output(self, context, instance, tail_length=None) -> str:
        """The guest's console log, its last ``tail_length`` lines if given."""
        output = self.driver.get_console_output(context, instance)
        if tail_length is None:
            return output
        length = int(tail_length)
        if length <= 0:
            return ""
        return "\n".join(output.split("\n")[-length:])

    def _console(self, instance, console_type: str, enabled: bool, types, locate):
        """``locate()``'s console of the instance (``host``, ``port`` and
        ``tls_port`` when it has one), if this host offers ``console_type``
        (``enabled``, one of ``types``).

        :raises ConsoleTypeUnavailable: the host offers no such console.
        :raises ConsoleTypeInvalid: not a type of this console.
        :raises InstanceNotFound: the instance is not on this host.
        """
        if not enabled:
            raise exception.ConsoleTypeUnavailable(console_type=console_type)
        if console_type not in types:
            raise exception.ConsoleTypeInvalid(console_type=console_type)
        if instance.host != self.host:
            raise exception.InstanceNotFound(instance_id=instance.uuid)
        console = locate()
        details = {"host": console["host"], "port": int(console["port"])}
        if console.get("tls_port"):
            details["tls_port"] = int(console["tls_port"])
        return details

    def get_vnc_console(self, context, instance, console_type: str) -> dict:
        """Where the instance's VNC server listens (``host``, ``port``)."""
        return self._console(
            instance,
            console_type,
            CONF.vnc.enabled,
            ("novnc",),
            lambda: self.driver.get_vnc_console(context, instance),
        )

    def get_spice_console(self, context, instance, console_type: str) -> dict:
        """Where the instance's SPICE server listens (``host``, ``port``,
        ``tls_port`` if it has one), for the HTML5 proxy or a native SPICE
        client (``spice-direct``)."""
        return self._console(
            instance,
            console_type,
            CONF.spice.enabled,
            ("spice-html5", "spice-direct"),
            lambda: self.driver.get_spice_console(context, instance),
        )

    def get_serial_console(self, context, instance, console_type: str) -> dict:
        """Where the instance's serial port listens (``host``, ``port``)."""
        return self._console(
            instance,
            console_type,
            CONF.serial_console.enabled,
            ("serial",),
            lambda: self.driver.get_serial_console(context, instance),
        )

    def _check_running(self, instance, method: str) -> None:
        """:raises InstanceInvalidState: the guest is not running."""
        current = self.current_power_state(instance)
        if current != power_state.RUNNING:
            raise exception.InstanceInvalidState(
                instance_uuid=instance.uuid,
                attr="power state",
                state=power_state.STATE_MAP.get(current, current),
                method=method,
            )

    def get_diagnostics(self, context, instance) -> dict:
        self._check_running(instance, "get_diagnostics")
        return self.driver.get_diagnostics(instance)

    def get_instance_diagnostics(self, context, instance) -> dict:
        self._check_running(instance, "get_instance_diagnostics")
        return self.driver.get_instance_diagnostics(instance)

    @staticmethod
    def _clear_password_task(instance) -> None:
        instance.task_state = None
        instance.save(expected_task_state=task_states.UPDATING_PASSWORD)

    def set_admin_password(self, context, instance, new_pass: str) -> None:
        """Set the guest's administrator password. Whatever happens, the
        task is cleared; ``new_pass`` is never logged, nor is an error text
        that might quote it returned."""
        with self.compute.instance_lock(instance.uuid):
            if self.current_power_state(instance) != power_state.RUNNING:
                self._clear_password_task(instance)
                raise exception.InstancePasswordSetFailed(
                    instance=instance.uuid,
                    reason=f"instance {instance.uuid} is not running",
                )
            try:
                self.driver.set_admin_password(instance, new_pass)
            except (
                exception.InstanceAgentNotEnabled,
                exception.SetAdminPasswdNotSupported,
                exception.InstancePasswordSetFailed,
            ):
                self._clear_password_task(instance)
                raise
            except NotImplementedError:
                self._clear_password_task(instance)
                raise NotImplementedError(
                    "set_admin_password is not implemented by this driver "
                    "or guest instance."
                ) from None
            except Exception:
                LOG.exception("Setting the password of %s failed", instance.uuid)
                self._clear_password_task(instance)
                raise exception.InstancePasswordSetFailed(
                    instance=instance.uuid, reason="error setting admin password"
                ) from None
            self._clear_password_task(instance)
        LOG.info("Admin password of instance %s set", instance.uuid)

    def trigger_crash_dump(self, context, instance) -> None:
        """Inject an NMI; a failure is recorded on the action's event (a
        cast has no caller to tell)."""
        try:
            with (
                compute_utils.EventReporter(
                    context, "compute_trigger_crash_dump", self.host, instance.uuid
                ),
                instance_notifications.action(
                    context, instance, self.host, "trigger_crash_dump"
                ),
            ):
                self.driver.trigger_crash_dump(instance)
        except Exception as exc:
            LOG.warning("Crash dump of %s failed: %s", instance.uuid, exc)
            compute_utils.add_instance_fault_from_exc(context, instance, exc, self.host)
