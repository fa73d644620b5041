"""The cell conductor's reschedule of a build that failed on its host.

The build goes to the first alternate the scheduler chose with the failed
host whose allocation request Placement can still claim, without asking the
scheduler again; the failed host's allocation is already gone, so this
claim is the move. With no alternate left the instance goes to ERROR with a
fault naming every attempt.
"""

from __future__ import annotations

import json

from oslo_log import log as logging

from nova import exception, objects, placement
from nova.compute import build_retry
from nova.conductor.tasks import base
from nova.states import vm_states

LOG = logging.getLogger(__name__)


class RescheduleTask(base.TaskBase):
    """Build ``instance`` on the first of ``alternates`` that can be
    claimed; ``build_parameters`` are this instance's own, and gain the
    alternates that lost their room as attempts."""

    def __init__(
        self,
        context,
        instance,
        request_spec,
        build_parameters,
        alternates: list,
        compute_rpcapi,
    ) -> None:
        super().__init__(context)
        self.instance = instance
        self.request_spec = request_spec
        self.build_parameters = build_parameters
        self.alternates = alternates
        self.compute_rpcapi = compute_rpcapi
        self.claimed = False

    def _execute(self) -> None:
        if self._deleted():
            return
        selection = self._claim_alternate()
        if self._deleted():
            # Deleted while we claimed: the delete gave back what it saw,
            # our claim came after it.
            base.remove_allocations(self.context, self.instance.uuid)
            return
        LOG.info(
            "Instance %s is rescheduled to %s (%s)",
            self.instance.uuid,
            selection.service_host,
            selection.nodename,
        )
        self.compute_rpcapi.build_and_run_instance(
            self.context,
            instance=self.instance,
            host=selection.service_host,
            request_spec=self.request_spec,
            build_parameters=self.build_parameters,
            node=selection.nodename,
            limits=selection.limits,
            host_list=[selection, *self.alternates],
        )

    def _deleted(self) -> bool:
        """Whether the user deleted the instance while its build was
        between hosts (it has none then, so the delete was done in place)."""
        try:
            current = objects.Instance.get_by_uuid(self.context, self.instance.uuid)
        except exception.InstanceNotFound:
            current = None
        if current is None or current.vm_state == vm_states.DELETED:
            LOG.info(
                "Instance %s was deleted during its reschedule", self.instance.uuid
            )
            return True
        return False

    def _claim_alternate(self):
        """Pop alternates until one is claimed for the instance.

        :raises MaxRetriesExceeded: none is left.
        """
        client = placement.client()
        attempts = self.build_parameters.filter_properties
        while self.alternates:
            selection = self.alternates.pop(0)
            if not selection.allocation_request:
                return selection
            if client.claim_resources(
                self.instance.uuid,
                json.loads(selection.allocation_request),
                self.instance.project_id,
                self.instance.user_id,
                context=self.context,
            ):
                self.claimed = True
                return selection
            LOG.info(
                "Alternate %s of %s has no room left",
                selection.service_host,
                self.instance.uuid,
            )
            build_retry.record_attempt(
                attempts,
                selection.service_host,
                selection.nodename,
                "its resources were claimed by another request",
            )
        raise build_retry.exhausted(self.instance.uuid, attempts)

    def rollback(self, exc: Exception) -> None:
        """The claim goes back to Placement; the instance ends in ERROR
        with the reason."""
        if self.claimed:
            base.remove_allocations(self.context, self.instance.uuid)
        base.set_error(self.context, self.instance, exc)
