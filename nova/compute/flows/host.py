"""The host itself: its resources in Placement, its enabled flag,
maintenance and power, and the housekeeping periodic tasks (usage audit,
expired console tokens, the image cache)."""

from __future__ import annotations

from nova import objects
from nova.compute import usage_audit
from nova.compute.flows import base


class HostFlow(base.Flow):
    """What the host reports and what an operator does to it."""

    def __init__(self, compute: base.ComputeHost) -> None:
        super().__init__(compute)
        self.service_ref = None

    def update_available_resource(self, context) -> None:
        self.compute.rt.update_available_resource(context, self.service_ref.id)
        # The service may have been disabled through the API while this
        # compute could not be told.
        service = objects.Service.get_by_id(context, self.service_ref.id)
        self.compute.rt.set_status_trait(context, service.disabled)

    def set_host_enabled(self, context, enabled: bool) -> str:
        """Reflect the host's enabled flag in Placement now, then tell the
        hypervisor (os-hosts' status update).

        :returns: ``"enabled"`` or ``"disabled"``.
        :raises NotImplementedError: the driver has no such notion.
        """
        self.compute.rt.set_status_trait(context, not enabled)
        return self.driver.set_host_enabled(enabled)

    def host_maintenance_mode(self, context, host: str, mode: bool) -> str:
        """:returns: ``"on_maintenance"`` or ``"off_maintenance"``.

        :raises NotImplementedError: the driver cannot do it.
        """
        return self.driver.host_maintenance_mode(host, mode)

    def host_power_action(self, context, action: str) -> str:
        """:raises NotImplementedError: the driver cannot do it."""
        return self.driver.host_power_action(action)

    def get_host_uptime(self, context) -> str:
        return self.driver.get_host_uptime()

    def instance_usage_audit(self, context) -> None:
        usage_audit.audit_host(context, self.host)

    @staticmethod
    def cleanup_expired_console_auth_tokens(context) -> None:
        # Expired tokens are refused anyway; this only keeps the table small.
        objects.ConsoleAuthToken.clean_expired_console_auths(context)

    def manage_image_cache(self, context) -> None:
        self.driver.manage_image_cache(context, list(self.instances_of_host(context)))
