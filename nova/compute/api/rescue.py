"""Rescue: boot a server from a rescue image with its own disk attached
second, and back."""

from __future__ import annotations

from nova import exception, policy
from nova.compute.api import base
from nova.policies import rescue as rescue_policies
from nova.states import machine


class RescueAPI(base.FlowAPI):
    """rescue and unrescue."""

    def rescue(
        self,
        context,
        instance,
        rescue_password: str | None = None,
        rescue_image_ref: str | None = None,
    ) -> None:
        """Boot an ACTIVE, STOPPED or ERROR server from a rescue image (the
        one named, else its own) with its root disk as the second disk.

        :raises UnsupportedRescueImage: (400) the named image is not there.
        :raises InstanceNotRescuable: (400) the server has no image of its
            own and none was named.
        """
        policy.authorize(context, rescue_policies.RESCUE, base.target(instance))
        if rescue_image_ref:
            try:
                self.image_api.show(context, rescue_image_ref)
            except exception.ImageNotFound as exc:
                raise exception.UnsupportedRescueImage(image=rescue_image_ref) from exc
        elif not instance.image_ref:
            raise exception.InstanceNotRescuable(
                instance_id=instance.uuid, reason="it was not booted from an image"
            )
        cctxt, cell_instance = self.start_action(
            context, instance, machine.RESCUE, rescue_policies.RESCUE
        )
        self._compute_rpcapi().rescue_instance(
            cctxt,
            cell_instance,
            rescue_password=rescue_password,
            rescue_image_ref=rescue_image_ref,
        )

    def unrescue(self, context, instance) -> None:
        """Boot a RESCUED server from its own disk again."""
        cctxt, cell_instance = self.start_action(
            context, instance, machine.UNRESCUE, rescue_policies.UNRESCUE
        )
        self._compute_rpcapi().unrescue_instance(cctxt, cell_instance)
