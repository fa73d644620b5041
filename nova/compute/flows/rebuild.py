"""Rebuild on this host: destroy the guest and spawn it again from an
image, the instance's own or a new one that must suit this host."""

from __future__ import annotations

import types

from oslo_log import log as logging

from nova import exception, objects
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.image import api as image_api
from nova.notifications import instance as instance_notifications
from nova.notifications.payloads import instance as payloads
from nova.objects import base as objects_base
from nova.scheduler.filters import image_props_filter
from nova.states import machine, power_state, task_states, vm_states

LOG = logging.getLogger(__name__)

REBUILD_EVENT = "compute_rebuild_instance"


class RebuildFlow(base.Flow):
    """rebuild_instance."""

    def rebuild_instance(
        self,
        context,
        instance,
        orig_image_ref,
        image_ref,
        orig_sys_metadata,
        injected_files=None,
        new_pass=None,
        preserve_ephemeral=False,
    ) -> None:
        """Destroy the guest and spawn it again from ``image_ref``.

        A changed image must suit this host (ImagePropertiesFilter's
        rule): if not, the instance gets its old image back, a fault, and
        keeps its state. A failed spawn leaves the row's failure state.
        """
        with self.compute.instance_lock(instance.uuid):
            try:
                with (
                    compute_utils.EventReporter(
                        context, REBUILD_EVENT, self.host, instance.uuid
                    ),
                    instance_notifications.action(
                        context,
                        instance,
                        self.host,
                        "rebuild",
                        payload_class=payloads.InstanceActionRebuildPayload,
                    ),
                ):
                    self._rebuild(
                        context,
                        instance,
                        orig_image_ref,
                        image_ref,
                        injected_files,
                        new_pass,
                    )
            except (
                exception.InstanceNotFound,
                exception.UnexpectedDeletingTaskStateError,
            ):
                LOG.info("Instance %s was deleted during its rebuild", instance.uuid)
            except exception.ImageUnacceptable as exc:
                LOG.warning("Rebuild of %s refused: %s", instance.uuid, exc)
                instance.image_ref = orig_image_ref
                instance.system_metadata = orig_sys_metadata
                self.end_task_with_fault(context, instance, exc, instance.vm_state)
            except Exception as exc:  # the guest is gone
                LOG.exception("Rebuild of instance %s failed", instance.uuid)
                self.end_task_with_fault(
                    context, instance, exc, machine.REBUILD.failure
                )

    def _check_image_fits_host(self, image, instance) -> None:
        """:raises ImageUnacceptable: the host cannot run what the image
        asks for (architecture, hypervisor type, VM mode)."""
        node = instance.node or self.host
        supported = self.driver.get_available_resource(node).get(
            "supported_instances", []
        )
        host_state = types.SimpleNamespace(supported_instances=supported)
        spec = objects.RequestSpec(image=objects.ImageMeta.from_dict(image))
        if not image_props_filter.ImagePropertiesFilter().host_passes(host_state, spec):
            raise exception.ImageUnacceptable(
                image_id=image.get("id"),
                reason=f"host {self.host} cannot run the image's architecture, "
                "hypervisor type or VM mode",
            )

    def _rebuild(
        self, context, instance, orig_image_ref, image_ref, injected_files, new_pass
    ) -> None:
        image = image_api.get_image_api().show(context, image_ref)
        if image_ref != orig_image_ref:
            self._check_image_fits_host(image, instance)
        allocations = self.allocations(context, instance)
        self.driver.destroy(context, instance)
        instance.power_state = power_state.NOSTATE
        instance.task_state = task_states.REBUILD_BLOCK_DEVICE_MAPPING
        instance.save(expected_task_state=task_states.REBUILDING)
        instance.task_state = task_states.REBUILD_SPAWNING
        instance.save(expected_task_state=task_states.REBUILD_BLOCK_DEVICE_MAPPING)
        # The same ports, plugged again into the new guest.
        network_info = objects.InstanceInfoCache.get_by_instance_uuid(
            context, instance.uuid
        ).network_info
        self.driver.spawn(
            context,
            instance,
            objects.ImageMeta.from_dict(image),
            injected_files or [],
            new_pass,
            allocations,
            network_info=network_info or [],
            power_on=machine.REBUILD.end_state(instance.vm_state) != vm_states.STOPPED,
        )
        instance.launched_at = objects_base.utcnow()
        self.finish(instance, machine.REBUILD, expected=[task_states.REBUILD_SPAWNING])
        LOG.info("Instance %s rebuilt from image %s", instance.uuid, image_ref)
