"""Attaching volumes to a guest and detaching them (``os-volume_attachments``),
and letting go of every volume when the instance is deleted.

The compute API has reserved the volume in the block storage service (an
attachment without a connector) and recorded the block device mapping.
Here the host connects it: the attachment is updated with this host's
connector, which answers the connection info; the driver gives the volume
to the guest; the attachment is completed (the volume becomes ``in-use``).
If any step fails the attachment is deleted and the mapping destroyed, so
a half-done attach leaves the volume ``available`` again. A detach takes
the volume from the guest, deletes the attachment and destroys the
mapping; if the driver fails the volume is rolled back to ``in-use``.
"""

from __future__ import annotations

import json

from oslo_log import log as logging

from nova import exception, objects
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.notifications import instance as notify
from nova.volume import api as volume_api

LOG = logging.getLogger(__name__)


class VolumesFlow(base.Flow):
    """attach_volume, detach_volume and the volumes of a deleted instance."""

    @property
    def volume_api(self):
        return volume_api.get_volume_api()

    def attach_volume(self, context, instance, bdm) -> None:
        with (
            self.compute.instance_lock(instance.uuid),
            compute_utils.EventReporter(
                context, "compute_attach_volume", self.host, instance.uuid
            ),
            notify.volume_action(
                context, instance, self.host, "volume_attach", bdm.volume_id
            ),
        ):
            try:
                attachment = self.volume_api.attachment_update(
                    context,
                    bdm.attachment_id,
                    self.driver.get_volume_connector(instance),
                    bdm.device_name,
                )
                connection_info = attachment["connection_info"]
                self.driver.attach_volume(
                    context,
                    connection_info,
                    instance,
                    bdm.device_name,
                    disk_bus=bdm.disk_bus,
                    device_type=bdm.device_type,
                )
                bdm.connection_info = json.dumps(connection_info)
                bdm.save()
                self.volume_api.attachment_complete(context, bdm.attachment_id)
            except Exception:
                LOG.exception(
                    "Attaching volume %s to %s failed; rolling back",
                    bdm.volume_id,
                    instance.uuid,
                )
                self._forget(context, instance, bdm)
                raise
        LOG.info(
            "Attached volume %s to %s at %s",
            bdm.volume_id,
            instance.uuid,
            bdm.device_name,
        )

    def detach_volume(self, context, instance, bdm) -> None:
        with (
            self.compute.instance_lock(instance.uuid),
            compute_utils.EventReporter(
                context, "compute_detach_volume", self.host, instance.uuid
            ),
            notify.volume_action(
                context, instance, self.host, "volume_detach", bdm.volume_id
            ),
        ):
            try:
                self._disconnect(context, instance, bdm)
            except Exception:
                LOG.exception(
                    "Detaching volume %s from %s failed", bdm.volume_id, instance.uuid
                )
                self.volume_api.roll_detaching(context, bdm.volume_id)
                raise
            self._forget(context, instance, bdm)
        LOG.info("Detached volume %s from %s", bdm.volume_id, instance.uuid)

    def release_volumes(self, context, instance) -> None:
        """After the guest is destroyed: drop every volume's attachment and
        delete the volumes marked ``delete_on_termination``. A failure is
        logged and the next volume handled: the instance goes anyway."""
        bdms = objects.BlockDeviceMappingList.get_by_instance_uuid(
            context, instance.uuid
        )
        for bdm in bdms:
            if not bdm.is_volume or not bdm.volume_id:
                continue
            try:
                if bdm.attachment_id:
                    self.volume_api.attachment_delete(context, bdm.attachment_id)
                if bdm.delete_on_termination:
                    self.volume_api.delete(context, bdm.volume_id)
            except Exception:
                LOG.exception(
                    "Could not release volume %s of %s", bdm.volume_id, instance.uuid
                )

    # -- steps ------------------------------------------------------------------

    def _disconnect(self, context, instance, bdm) -> None:
        connection_info = json.loads(bdm.connection_info or "{}")
        self.driver.detach_volume(context, connection_info, instance, bdm.device_name)

    def _forget(self, context, instance, bdm) -> None:
        """Delete the attachment and destroy the mapping; a failure to
        delete is logged (the volume stays reserved, for an operator)."""
        try:
            if bdm.attachment_id:
                self.volume_api.attachment_delete(context, bdm.attachment_id)
        except exception.NovaException:
            LOG.exception(
                "Could not delete attachment %s of volume %s",
                bdm.attachment_id,
                bdm.volume_id,
            )
        bdm.destroy()
