"""The superconductor's unshelve.

A SHELVED instance still has its guest on its host: it is powered on there
again. A SHELVED_OFFLOADED one is scheduled through the scheduler and
Placement and the chosen host boots it from its shelved image; when that
fails it stays SHELVED_OFFLOADED with a fault saying why.
"""

from __future__ import annotations

from oslo_log import log as logging

from nova import context as nova_context
from nova import exception, objects
from nova.compute import snapshot
from nova.compute import utils as compute_utils
from nova.conductor.tasks import base
from nova.states import task_states, vm_states

LOG = logging.getLogger(__name__)

UNSHELVE_EVENT = "conductor_unshelve_instance"


class UnshelveTask(base.TaskBase):
    """Unshelve ``instance`` (whose task state the API set to UNSHELVING);
    ``context`` is the API-level one, not targeted at a cell."""

    def __init__(
        self,
        context,
        instance,
        request_spec,
        scheduler_client,
        compute_rpcapi,
        host: str,
    ) -> None:
        super().__init__(context)
        self.instance = instance
        self.request_spec = request_spec
        self.scheduler_client = scheduler_client
        self.compute_rpcapi = compute_rpcapi
        self.host = host
        # The instance's context in its cell, the task state this task
        # answers for, and whether Placement holds a claim made for it.
        self.cell_context = None
        self.task_state: str | None = None
        self.claimed = False

    def _execute(self) -> None:
        uuid = self.instance.uuid
        mapping = objects.InstanceMapping.get_by_instance_uuid(self.context, uuid)
        with nova_context.target_cell(self.context, mapping.cell_mapping) as cctxt:
            self.instance = objects.Instance.get_by_uuid(cctxt, uuid)
        self.cell_context = cctxt
        if self.instance.vm_state == vm_states.SHELVED:
            self._power_on()
            return
        self.task_state = task_states.UNSHELVING
        with compute_utils.EventReporter(cctxt, UNSHELVE_EVENT, self.host, uuid):
            image = _shelved_image(self.instance)
            selection = self._schedule(image)
        LOG.info("Unshelving %s on %s", uuid, selection.service_host)
        self.compute_rpcapi.unshelve_instance(
            cctxt,
            self.instance,
            host=selection.service_host,
            image=image,
            request_spec=self.request_spec,
            filter_properties={},
            node=selection.nodename,
        )

    def _power_on(self) -> None:
        self.instance.task_state = task_states.POWERING_ON
        self.instance.save(expected_task_state=task_states.UNSHELVING)
        self.task_state = task_states.POWERING_ON
        self.compute_rpcapi.start_instance(self.cell_context, self.instance)

    def _schedule(self, image: dict):
        """The host chosen for the instance, its resources claimed."""
        if self.request_spec is None:
            self.request_spec = objects.RequestSpec.get_by_instance_uuid(
                self.context, self.instance.uuid
            )
        self.request_spec.num_instances = 1
        self.request_spec.image = objects.ImageMeta.from_dict(image)
        [host_list] = self.scheduler_client.select_destinations(
            self.context,
            self.request_spec,
            [self.instance.uuid],
            return_objects=True,
            return_alternates=False,
        )
        self.claimed = True
        return host_list[0]

    def rollback(self, exc: Exception) -> None:
        """A claim goes back to Placement; the task this one started ends,
        with the reason as the instance's fault (a SHELVED_OFFLOADED
        instance stays so)."""
        if self.claimed:
            base.remove_allocations(self.context, self.instance.uuid)
        if self.task_state is None:
            return
        compute_utils.add_instance_fault_from_exc(self.cell_context, self.instance, exc)
        self.instance.task_state = None
        self.instance.save(expected_task_state=self.task_state)


def _shelved_image(instance) -> dict:
    """The shelved image, as the instance remembers its own image.

    :raises ImageNotFound: the instance has no shelved image.
    """
    sysmeta = instance.system_metadata or {}
    image_id = sysmeta.get("shelved_image_id")
    if not image_id:
        raise exception.ImageNotFound(image_id=None)
    return {"id": image_id, **snapshot.image_meta_from_system_metadata(sysmeta)}
